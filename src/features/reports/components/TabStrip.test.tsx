/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Icons } from '@blueprintjs/icons';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { reportSummaryFixture } from '../../../../test/reportFixture';
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type AccessLevel } from '../../../contracts/reports';
import { reportsApi } from '../reportsApi';
import { startTabsListeners, tabsKey } from '../state/tabsPersistence';
import { selectWorkspaceTabs, type ReportTab } from '../state/tabsSlice';
import { TabStrip } from './TabStrip';

const WS = 3;
const levels: Record<number, AccessLevel> = { 1: 'full_access', 2: 'read', 3: 'read_write' };
const titleOf = (id: number) => `Report ${id}`;

const summary = (id: number, title = titleOf(id)) =>
  reportSummaryFixture({ id, workspace_id: WS, title, access_level: levels[id] });

function Location() {
  return <output aria-label="Location">{useLocation().pathname}</output>;
}

let stopListeners: () => void;
const stored = new Map<string, string>();
let network: ReturnType<typeof stubNetwork>;
/** The titles the fake server was asked to rename to. */
let renames: string[];

function setup({ renameStatus = 200 } = {}) {
  const titles = new Map([1, 2, 3].map((id) => [id, titleOf(id)]));
  renames = [];
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'GET' && pathname === `/api/workspaces/${WS}/reports`) {
      return json({ data: [...titles].map(([id, title]) => summary(id, title)) });
    }
    const rename = /^\/api\/workspaces\/3\/reports\/dashboard\/(\d+)\/title$/.exec(pathname);
    if (request.method === 'PUT' && rename) {
      const { title } = (await request.json()) as { title: string };
      renames.push(title);
      if (renameStatus !== 200) return json({ error: 'No' }, renameStatus);
      const id = Number(rename[1]);
      titles.set(id, title);
      return json({ data: { ...summary(id, titles.get(id)), config: { widgets: [] } } });
    }
    return json({ error: 'Not found' }, 404);
  });
  const tabs: ReportTab[] = [1, 2, 3].map((id) => ({
    objectType: 'dashboard',
    objectId: id,
    title: titleOf(id),
    openedAt: 0,
  }));
  const rendered = renderWithProviders(
    <Routes>
      <Route
        path="/workspaces/:workspaceId/*"
        element={
          <>
            <TabStrip workspaceId={WS} />
            <Location />
          </>
        }
      />
    </Routes>,
    {
      route: `/workspaces/${WS}/reports/dashboard/2`,
      preloadedState: {
        tabs: { byWorkspace: { [WS]: { tabs, active: { objectType: 'dashboard', objectId: 2 } } } },
      },
    },
  );
  return rendered;
}

const tab = (name: string) => screen.getByRole('tab', { name });
const location = () => screen.getByLabelText('Location').textContent;
const messages = (store: ReturnType<typeof setup>['store']) =>
  store.getState().notifications.items.map((item) => item.message);
const listLoaded = (store: ReturnType<typeof setup>['store']) =>
  waitFor(() => expect(reportsApi.endpoints.getReports.select(WS)(store.getState()).data).toHaveLength(3));

// Blueprint loads icon paths asynchronously; loaded up front, they render at once instead of updating later.
beforeAll(() => Icons.loadAll());
beforeEach(() => {
  stored.clear();
  stopListeners = startTabsListeners({ setItem: (key, value) => stored.set(key, value) });
});
afterEach(() => {
  stopListeners();
  network.restore();
});

describe('tab strip (spec 2 §2 Tab strip)', () => {
  it('shows the fixed Home tab first, then the report tabs, the focused one selected', () => {
    setup();
    expect(screen.getAllByRole('tab').map((element) => element.getAttribute('aria-label'))).toEqual([
      'Home',
      'Report 1',
      'Report 2',
      'Report 3',
    ]);
    expect(tab('Report 2').getAttribute('aria-selected')).toBe('true');
  });

  it('goes to a tab’s report on click, and Home with the plus button', () => {
    setup();
    fireEvent.click(tab('Report 3'));
    expect(location()).toBe('/workspaces/3/reports/dashboard/3');
    fireEvent.click(screen.getByRole('button', { name: 'Open Home tab' }));
    expect(location()).toBe('/workspaces/3/reports');
    expect(tab('Home').getAttribute('aria-selected')).toBe('true');
  });

  it('closing the focused tab goes to the next one and remembers the strip', () => {
    const { store } = setup();
    fireEvent.click(screen.getByTitle('Close Report 2'));
    expect(screen.queryByRole('tab', { name: 'Report 2' })).toBeNull();
    expect(location()).toBe('/workspaces/3/reports/dashboard/3');
    expect(selectWorkspaceTabs(store.getState(), WS).active).toEqual({ objectType: 'dashboard', objectId: 3 });
    expect(JSON.parse(stored.get(tabsKey(WS)) ?? 'null')).toEqual(selectWorkspaceTabs(store.getState(), WS));
  });

  it('the tablist holds only tabs: the cross is left to the mouse, Delete closes the focused tab', () => {
    setup();
    const list = screen.getByRole('tablist', { name: 'Open reports' });
    // What assistive technology sees as the strip's children: the four tabs and nothing else.
    expect(
      [...list.querySelectorAll('[role], button, input')]
        .filter((el) => !el.closest('[aria-hidden="true"]') && !el.parentElement?.closest('[role="tab"]'))
        .map((el) => el.getAttribute('role')),
    ).toEqual(['tab', 'tab', 'tab', 'tab']);
    expect(screen.queryByRole('button', { name: /^Close/ })).toBeNull();
    fireEvent.keyDown(tab('Report 3'), { key: 'Delete' });
    expect(screen.queryByRole('tab', { name: 'Report 3' })).toBeNull();
    expect(location()).toBe('/workspaces/3/reports/dashboard/2');
    fireEvent.keyDown(tab('Report 2'), { key: 'Delete' });
    expect(location()).toBe('/workspaces/3/reports/dashboard/1');
  });

  it('the context menu closes the others, or all of them', async () => {
    setup();
    fireEvent.contextMenu(tab('Report 1'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Close others' }));
    expect(screen.getAllByRole('tab').map((element) => element.getAttribute('aria-label'))).toEqual([
      'Home',
      'Report 1',
    ]);
    expect(location()).toBe('/workspaces/3/reports/dashboard/1');
    fireEvent.contextMenu(tab('Report 1'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Close all' }));
    expect(screen.getAllByRole('tab')).toHaveLength(1);
    expect(location()).toBe('/workspaces/3/reports');
  });

  it('double-click renames a report the user may write; the tab takes the new title', async () => {
    const { store } = setup();
    await listLoaded(store);
    fireEvent.doubleClick(tab('Report 1'));
    const input = screen.getByLabelText('Report name');
    fireEvent.change(input, { target: { value: '  Quarterly  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(messages(store)).toEqual(['Report renamed']));
    expect(await screen.findByRole('tab', { name: 'Quarterly' })).toBeTruthy();
    expect(renames).toEqual(['Quarterly']);
  });

  it('ignores an empty name, and offers no renaming without write access', async () => {
    const { store } = setup();
    await listLoaded(store);
    fireEvent.doubleClick(tab('Report 1'));
    const input = screen.getByLabelText('Report name');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(tab('Report 1')).toBeTruthy();
    fireEvent.doubleClick(tab('Report 2'));
    expect(screen.queryByLabelText('Report name')).toBeNull();
    expect(renames).toEqual([]);
    expect(messages(store)).toEqual([]);
  });

  it('says when renaming failed and keeps the old title', async () => {
    const { store } = setup({ renameStatus: 403 });
    await listLoaded(store);
    fireEvent.doubleClick(tab('Report 3'));
    const input = screen.getByLabelText('Report name');
    fireEvent.change(input, { target: { value: 'Other' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(messages(store)).toEqual(['Failed to rename report']));
    expect(tab('Report 3')).toBeTruthy();
  });
});
