// The settings pages and the campaign web view, loaded together in one chunk (the shell is in workspaceShell.ts).
export { MembersPage } from '../features/members/MembersPage';
export { ProfilePage } from '../features/profile/ProfilePage';
export { AdminWorkspacesPage } from '../features/admin/AdminWorkspacesPage';
export { AgencyPage } from '../features/settings/AgencyPage';
export { GeneralPage } from '../features/settings/GeneralPage';
export { SettingsLayout } from '../features/settings/SettingsLayout';
export { DataModelPage } from '../features/data-model/DataModelPage';
export { IntegrationDetailPage } from '../features/integrations/IntegrationDetailPage';
export { IntegrationsPage } from '../features/integrations/IntegrationsPage';
export { CampaignWebviewPage } from '../features/workspaces/CampaignWebviewPage';
