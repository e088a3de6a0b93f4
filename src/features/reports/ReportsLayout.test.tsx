/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Icons } from '@blueprintjs/icons';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { reportSummaryFixture } from '../../../test/reportFixture';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type Me } from '../../contracts/me';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { reportsApi } from './reportsApi';
import { ReportsLayout } from './ReportsLayout';
import { startTabsListeners } from './state/tabsPersistence';
import { selectWorkspaceTabs } from './state/tabsSlice';

const WS = 3;

const me: Me = meFixture({ memberId: 7 }, { id: WS });

const summary = (id: number, title: string) => reportSummaryFixture({ id, workspace_id: WS, title });

let network: ReturnType<typeof stubNetwork>;
const listArrived = (store: ReturnType<typeof setupStore>) =>
  waitFor(() => expect(reportsApi.endpoints.getReports.select(WS)(store.getState()).data).toBeDefined());
let stopListeners: () => void;

async function renderAt(route: string, reports = [summary(5, 'Weekly results')]) {
  network = stubNetwork((request) =>
    new URL(request.url).pathname === `/api/workspaces/${WS}/reports`
      ? json({ data: reports })
      : json({ error: 'Not found' }, 404),
  );
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
  renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId" element={<ReportsLayout />}>
        <Route index element={<p>Home page</p>} />
        <Route path="reports" element={<p>Home page</p>} />
        <Route path="reports/:objectType/:objectId" element={<p>Report page</p>} />
      </Route>
    </Routes>,
    { store, route },
  );
  return store;
}

beforeAll(() => Icons.loadAll());
beforeEach(() => {
  stopListeners = startTabsListeners({ setItem: () => undefined });
});
afterEach(() => {
  stopListeners();
  network.restore();
});

describe('reports layout (spec 2 §4 Tabs)', () => {
  it('gives a report reached by URL a focused tab, titled once the list has arrived', async () => {
    const store = await renderAt(`/workspaces/${WS}/reports/dashboard/5`);
    expect(screen.getByText('Report page')).toBeTruthy();
    const tab = await screen.findByRole('tab', { name: 'Weekly results' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(selectWorkspaceTabs(store.getState(), WS).tabs.map((item) => item.objectId)).toEqual([5]);
  });

  it('focuses the Home tab on the home route and the workspace index', async () => {
    const store = await renderAt(`/workspaces/${WS}`);
    await listArrived(store);
    expect(screen.getByText('Home page')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Home' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab')).toHaveLength(1);
  });

  it('opens no tab for a malformed report address', async () => {
    const store = await renderAt(`/workspaces/${WS}/reports/chart/5`);
    await listArrived(store);
    expect(selectWorkspaceTabs(store.getState(), WS).tabs).toEqual([]);
  });
});
