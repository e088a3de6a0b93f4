import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../../test/meFixture';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { setupStore } from '../../../store/store';
import { authApi } from '../../auth/authApi';
import { IntegrationDetailPage } from '../IntegrationDetailPage';
import { IntegrationsPage } from '../IntegrationsPage';

/**
 * Renders the integrations settings routes (the list and a type's page) at `path` below
 * /workspaces/{workspaceId}/settings/integrations, for a signed-in user with `role` in that workspace.
 */
export async function renderIntegrations(workspaceId: number, role: 'admin' | 'member', path: string) {
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, meFixture({}, { id: workspaceId, role })));
  return renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/settings/integrations" element={<IntegrationsPage />} />
      <Route
        path="/workspaces/:workspaceId/settings/integrations/:integrationType"
        element={<IntegrationDetailPage />}
      />
    </Routes>,
    { store, route: `/workspaces/${workspaceId}/settings/integrations${path}` },
  );
}
