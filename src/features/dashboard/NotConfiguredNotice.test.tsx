/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { engineApi } from '../../store/engineApi';
import {
  startWidgetEngine,
  storeWithDataset,
  type WidgetEngine,
  widgetSchema,
  WORKSPACE_ID,
} from '../widgets/testing/widgetEngine';
import { NOT_CONFIGURED, NotConfiguredNotice } from './NotConfiguredNotice';

jest.setTimeout(60_000);

let engine: WidgetEngine | undefined;
let network: ReturnType<typeof stubNetwork> | undefined;
beforeAll(async () => {
  engine = await startWidgetEngine();
}, START_TIMEOUT_MS);
afterAll(() => engine?.stop());
afterEach(() => network?.restore());

const klaviyo = { id: 1, type: 'klaviyo', name: 'Klaviyo', units: [] };

/** The notice over a workspace with these integrations, the engine holding the fixture's rows (or none). */
function renderNotice(integrations: unknown[]) {
  network = stubNetwork((request) =>
    new URL(request.url).pathname === `/api/workspaces/${WORKSPACE_ID}/integrations`
      ? json({ data: integrations })
      : json({ error: 'Not found' }, 404),
  );
  const store = storeWithDataset();
  const { unmount } = renderWithProviders(
    <NotConfiguredNotice scope={{ workspaceId: WORKSPACE_ID }} dataset={widgetSchema.id} />,
    { store },
  );
  return { store, unmount };
}

/** True once the engine has answered whether the dataset holds any campaign. */
const engineAnswered = (store: ReturnType<typeof storeWithDataset>) =>
  Object.values(store.getState()[engineApi.reducerPath].queries).some((query) => query?.status === 'fulfilled');

describe("'Your workspace has not been fully configured yet.' (spec 2 §2 Dashboard canvas)", () => {
  it('stays away while the workspace has data, even without an integration', async () => {
    const { store } = renderNotice([]);
    await waitFor(() => expect(engineAnswered(store)).toBe(true));
    expect(screen.queryByText(NOT_CONFIGURED)).toBeNull();
  });

  it('shows on a workspace with no integration and no data, and not once an integration is there', async () => {
    engine!.sql(`DELETE FROM ${widgetSchema.tableId}`);
    const first = renderNotice([]);
    expect(await screen.findByText(NOT_CONFIGURED)).toBeTruthy();
    first.unmount();
    network?.restore();

    const { store } = renderNotice([klaviyo]);
    // The integrations answered: the dataset is not even asked about.
    await waitFor(() => expect(store.getState().api.queries['getIntegrations(7)']?.status).toBe('fulfilled'));
    expect(screen.queryByText(NOT_CONFIGURED)).toBeNull();
  });
});
