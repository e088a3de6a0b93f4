// The signed-in shell and the settings pages, loaded together in one chunk.
export { MembersPage } from '../features/members/MembersPage';
export { ProfilePage } from '../features/profile/ProfilePage';
export { AdminWorkspacesPage } from '../features/admin/AdminWorkspacesPage';
export { AgencyPage } from '../features/settings/AgencyPage';
export { GeneralPage } from '../features/settings/GeneralPage';
export { SettingsLayout } from '../features/settings/SettingsLayout';
export { DataModelPage } from '../features/data-model/DataModelPage';
export { IntegrationDetailPage } from '../features/integrations/IntegrationDetailPage';
export { IntegrationsPage } from '../features/integrations/IntegrationsPage';
export { WorkspaceLayout } from '../features/shell/components/WorkspaceLayout';
export { CampaignWebviewPage } from '../features/workspaces/CampaignWebviewPage';
export { shellIcons } from './shellIcons';
