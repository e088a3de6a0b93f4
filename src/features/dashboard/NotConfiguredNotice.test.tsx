/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { widgetSchema, WORKSPACE_ID } from '../widgets/testing/widgetEngine';
import { NOT_CONFIGURED, NotConfiguredNotice } from './NotConfiguredNotice';

let network: ReturnType<typeof stubNetwork> | undefined;
afterEach(() => network?.restore());

const klaviyo = { id: 1, type: 'klaviyo', name: 'Klaviyo', units: [] };
const integrationsPath = `/api/workspaces/${WORKSPACE_ID}/integrations`;
const schemaPath = `/api/workspaces/${WORKSPACE_ID}/datasets/${widgetSchema.id}`;

/** The notice over a workspace with these integrations and a dataset of `rowCount` rows, as the server answers. */
function renderNotice(integrations: unknown[], rowCount: number) {
  network = stubNetwork((request) => {
    const url = new URL(request.url);
    if (url.pathname === integrationsPath) return json({ data: integrations });
    if (url.pathname === schemaPath && url.searchParams.get('schema') === 'true') {
      return json({ ...widgetSchema, rowCount });
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore();
  const { unmount } = renderWithProviders(
    <NotConfiguredNotice scope={{ workspaceId: WORKSPACE_ID }} dataset={widgetSchema.id} />,
    { store },
  );
  const paths = () => network!.calls.map((call) => new URL(call.url).pathname);
  return { store, unmount, paths };
}

const schemaAnswered = (store: ReturnType<typeof setupStore>) =>
  Object.values(store.getState().api.queries).some(
    (query) => query?.endpointName === 'getDatasetSchema' && query.status === 'fulfilled',
  );

describe("'Your workspace has not been fully configured yet.' (spec 2 §2 Dashboard canvas)", () => {
  it('stays away while the workspace has data, even without an integration', async () => {
    const { store } = renderNotice([], 25_000);
    await waitFor(() => expect(schemaAnswered(store)).toBe(true));
    expect(screen.queryByText(NOT_CONFIGURED)).toBeNull();
  });

  it('shows on a workspace with no integration and no data, from the server’s answers alone', async () => {
    const { paths } = renderNotice([], 0);
    expect(await screen.findByText(NOT_CONFIGURED)).toBeTruthy();
    // The schema's row count decides: no dataset file is downloaded and no query runs for the notice.
    expect(paths().sort()).toEqual([integrationsPath, schemaPath].sort());
  });

  it('does not show once an integration is there, and then does not ask about the dataset', async () => {
    const { store, paths } = renderNotice([klaviyo], 0);
    await waitFor(() =>
      expect(store.getState().api.queries[`getIntegrations(${WORKSPACE_ID})`]?.status).toBe('fulfilled'),
    );
    expect(screen.queryByText(NOT_CONFIGURED)).toBeNull();
    expect(paths()).toEqual([integrationsPath]);
  });
});
