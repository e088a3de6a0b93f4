/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Icons } from '@blueprintjs/icons';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { ReportPage } from '../../app/reportViews';
import { type Annotation } from '../../contracts/annotations';
import { type Me } from '../../contracts/me';
import { type AccessLevel, PUBLIC_LINK_WIDENED, type Report, type ShareLevel } from '../../contracts/reports';
import { type RootState, setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { selectNotifications } from '../notifications/notificationsSlice';
import { reportsApi } from './reportsApi';
import { closeGoneReports } from './state/goneReports';
import { documentEdited, entryOfDraft, reportKey, selectDocument } from './state/reportDocumentSlice';

const WS = 3;
const ID = 42;
const YOU = { id: 7, name: 'Mia' };
const NEW_VIEW = 77;

const me: Me = meFixture({ memberId: YOU.id, name: YOU.name }, { id: WS, name: 'shop', licenseType: 'other' });

function report(overrides: Partial<Report> = {}): Report {
  return {
    id: ID,
    workspace_id: WS,
    type: 'explorer_view',
    title: 'Weekly results',
    dataset: 'list_members',
    config: { dataset: 'list_members', dateField: 'joined_at' },
    version: 1,
    owner: YOU,
    created_at: '2026-11-01T00:00:00.000Z',
    created_by: YOU,
    modified_at: '2026-11-01T00:00:00.000Z',
    modified_by: YOU,
    last_opened_at: null,
    access_level: 'full_access',
    share_level: 'private',
    ...overrides,
  };
}

let network: ReturnType<typeof stubNetwork>;
let annotations: Annotation[] = [];
let flags: string[] = [];
const annotation = (id: number, date_start: string, date_end: string): Annotation => ({
  id,
  workspace_id: WS,
  severity: 'note',
  message: `Note ${id}`,
  date_start,
  date_end,
  created_at: '2026-10-01T00:00:00.000Z',
  modified_at: '2026-10-01T00:00:00.000Z',
  created_by_id: YOU.id,
  created_by_name: YOU.name,
  created_by_email: null,
});
let stopListeners: () => void = () => undefined;

/** A report server: GET answers `current`, PUT answers `onSave` (default: the next version). */
async function renderPage(
  initial: Report | null,
  onSave: (body: Record<string, unknown>) => Response = (body) =>
    json({ data: { ...initial, ...body, version: (body.version as number) + 1 } }),
  preloadedState?: Partial<RootState>,
) {
  const server = { current: initial, saves: [] as Record<string, unknown>[] };
  network = stubNetwork(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === `/api/workspaces/${WS}/annotations`) return json({ data: annotations });
    if (pathname === `/api/workspaces/${WS}/flags`) return json({ data: flags });
    if (pathname.startsWith(`/api/workspaces/${WS}/reports/`) && server.current) {
      if (pathname.endsWith('/opened')) return json({ data: server.current });
      if (request.method === 'PUT') {
        const body = (await request.json()) as Record<string, unknown>;
        server.saves.push(body);
        return onSave(body);
      }
      return json({ data: server.current });
    }
    return json({ error: 'Not found' }, 404);
  });
  const store = setupStore(preloadedState);
  stopListeners = closeGoneReports();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
  const type = initial?.type ?? 'dashboard';
  const view = renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/reports/:objectType/:objectId" element={<ReportPage />} />
      <Route path={`/workspaces/:workspaceId/reports/:objectType/${NEW_VIEW}`} element={<p>The new view</p>} />
    </Routes>,
    { store, route: `/workspaces/${WS}/reports/${type}/${ID}` },
  );
  return { store, server, unmount: view.unmount };
}

const refetch = (store: ReturnType<typeof setupStore>) =>
  act(async () => {
    store.dispatch(reportsApi.util.invalidateTags([{ type: 'Report', id: ID }]));
  });

beforeAll(() => Icons.loadAll());
afterEach(() => {
  network.restore();
  annotations = [];
  flags = [];
  stopListeners();
});

describe('the report page', () => {
  it("shows 'View not found' for a report the server does not know, and forgets its unsaved changes", async () => {
    const key = reportKey('dashboard', ID);
    const draft = {
      config: { widgets: [] },
      title: 'Gone',
      baseVersion: 1,
      baseModifiedAt: '2026-11-01T00:00:00.000Z',
    };
    const { store } = await renderPage(null, undefined, { reportDocuments: { docs: { [key]: entryOfDraft(draft) } } });
    expect(await screen.findByText('View not found')).toBeTruthy();
    await waitFor(() => expect(selectDocument(store.getState(), key)).toBeUndefined());
  });

  it('shows the workspace, the title and, for an explorer view, no dashboard edit toggle', async () => {
    await renderPage(report());
    expect(await screen.findByRole('heading', { name: 'Weekly results' })).toBeTruthy();
    expect(screen.getByText('Shop')).toBeTruthy();
    expect(screen.queryByLabelText('Edit or view')).toBeNull();
  });

  it.each<[AccessLevel, ShareLevel, string[], string[]]>([
    ['full_access', 'private', ['Save', 'Share'], ['Save for everyone', 'Save as new view']],
    ['read_write', 'workspace', ['Save for everyone', 'More save choices'], ['Save', 'Share']],
    ['read', 'workspace', ['Save as new view'], ['Save', 'Save for everyone', 'Share', 'More save choices']],
  ])('with %s access to a %s report shows %j and hides %j', async (access, share, shown, hidden) => {
    await renderPage(report({ access_level: access, share_level: share }));
    await screen.findByRole('heading', { name: 'Weekly results' });
    for (const name of shown) expect(screen.getByRole('button', { name })).toBeTruthy();
    for (const name of hidden) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it.each<[AccessLevel, string[]]>([
    ['read', ['Duplicate']],
    ['read_write', ['Duplicate', 'Rename']],
    ['full_access', ['Duplicate', 'Rename', 'Delete']],
  ])('with %s access the report menu offers %j', async (access, items) => {
    await renderPage(report({ access_level: access }));
    await screen.findByRole('heading', { name: 'Weekly results' });
    fireEvent.click(screen.getByRole('button', { name: 'Report menu' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(items);
  });

  it("counts the annotations of the report's period in the toolbar badge", async () => {
    annotations = [
      annotation(1, '2026-09-28', '2026-10-02'),
      annotation(2, '2026-10-15', '2026-10-15'),
      annotation(3, '2026-08-01', '2026-08-31'),
    ];
    const october = { main: { start: '2026-10-01', end: '2026-10-31' } };
    const { store } = await renderPage(report({ type: 'dashboard', config: { widgets: [], dateRanges: october } }));
    expect(await screen.findByRole('button', { name: 'Annotations: 2' })).toBeTruthy();
    act(() => {
      store.dispatch(
        documentEdited({
          key: reportKey('dashboard', ID),
          config: { widgets: [], dateRanges: { main: { start: '2026-08-01', end: '2026-09-30' } } },
        }),
      );
    });
    expect(await screen.findByRole('button', { name: 'Annotations: 2' })).toBeTruthy();
    act(() => {
      store.dispatch(
        documentEdited({
          key: reportKey('dashboard', ID),
          config: { widgets: [], dateRanges: { main: { start: '2026-11-01', end: '2026-11-07' } } },
        }),
      );
    });
    expect(await screen.findByRole('button', { name: 'Annotations: 0' })).toBeTruthy();
  });

  it("moves a list dashboard onto the grid with 'Migrate' (flag new_dashboard), undoable and savable", async () => {
    const widgets = [
      { id: 'a', type: 'graph' },
      { id: 'b', type: 'table' },
    ];
    const key = reportKey('dashboard', ID);
    const plain = await renderPage(report({ type: 'dashboard', config: { widgets } }));
    await screen.findByRole('heading', { name: 'Weekly results' });
    await waitFor(() => expect(network.calls.some((call) => call.url.endsWith('/flags'))).toBe(true));
    expect(screen.queryByRole('button', { name: 'Migrate' })).toBeNull();
    plain.unmount();
    network.restore();

    flags = ['new_dashboard'];
    const { store } = await renderPage(report({ type: 'dashboard', config: { widgets } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Migrate' }));
    const migrated = selectDocument(store.getState(), key)!;
    expect(migrated.dirty).toBe(true);
    expect(migrated.config).toMatchObject({
      flags: ['grid_layout'],
      widgets: [
        { id: 'a', layout: { x: 0, y: 0, w: 6, h: 26 } },
        { id: 'b', layout: { x: 0, y: 26, w: 24, h: 22 } },
      ],
    });
    expect(screen.queryByRole('button', { name: 'Migrate' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(selectDocument(store.getState(), key)?.config).toEqual({ widgets });
    expect(await screen.findByRole('button', { name: 'Migrate' })).toBeTruthy();
  });

  it('offers the Edit/View toggle on a dashboard the user may change', async () => {
    await renderPage(report({ type: 'dashboard', config: { title: 'Weekly results', widgets: [] } }));
    expect(await screen.findByLabelText('Edit or view')).toBeTruthy();
  });

  it('undoes and redoes with the buttons and the keys, and saves with Ctrl+S', async () => {
    const { store, server } = await renderPage(report());
    await screen.findByRole('heading', { name: 'Weekly results' });
    const key = reportKey('explorer_view', ID);
    act(() => {
      store.dispatch(documentEdited({ key, config: { dataset: 'list_members', dateField: 'left_at' } }));
    });
    const undo = screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement;
    const redo = screen.getByRole('button', { name: 'Redo' }) as HTMLButtonElement;
    expect(undo.disabled).toBe(false);
    fireEvent.click(undo);
    expect(selectDocument(store.getState(), key)?.dirty).toBe(false);
    expect(redo.disabled).toBe(false);
    fireEvent.keyDown(document.body, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(selectDocument(store.getState(), key)?.config).toEqual({ dataset: 'list_members', dateField: 'left_at' });
    fireEvent.keyDown(document.body, { key: 'z', metaKey: true });
    expect(selectDocument(store.getState(), key)?.dirty).toBe(false);
    fireEvent.keyDown(document.body, { key: 'Z', metaKey: true, shiftKey: true });

    fireEvent.keyDown(document.body, { key: 's', ctrlKey: true });
    await waitFor(() => expect(selectDocument(store.getState(), key)?.dirty).toBe(false));
    expect(server.saves).toEqual([
      { config: { dataset: 'list_members', dateField: 'left_at' }, title: 'Weekly results', version: 1 },
    ]);
    expect(selectDocument(store.getState(), key)?.baseVersion).toBe(2);
  });

  it("says 'Failed to update report' when a save fails", async () => {
    // A refusal that is not retried, so the toast comes at once.
    const { store } = await renderPage(report(), () => json({ error: 'Forbidden' }, 403));
    await screen.findByRole('heading', { name: 'Weekly results' });
    act(() => {
      store.dispatch(documentEdited({ key: reportKey('explorer_view', ID), config: { dataset: 'list_members' } }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(selectNotifications(store.getState()).map((item) => item.message)).toEqual(['Failed to update report']),
    );
    expect(selectDocument(store.getState(), reportKey('explorer_view', ID))?.dirty).toBe(true);
  });

  it('says why when a save would make the public link show more', async () => {
    const { store } = await renderPage(report(), () => json({ error: PUBLIC_LINK_WIDENED }, 403));
    await screen.findByRole('heading', { name: 'Weekly results' });
    act(() => {
      store.dispatch(documentEdited({ key: reportKey('explorer_view', ID), config: { dataset: 'list_members' } }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(selectNotifications(store.getState()).map((item) => item.message)).toEqual([PUBLIC_LINK_WIDENED]),
    );
    expect(selectDocument(store.getState(), reportKey('explorer_view', ID))?.dirty).toBe(true);
  });

  it("names 'You' when the newer version is the user's own, and loads it", async () => {
    const { store, server } = await renderPage(report());
    await screen.findByRole('heading', { name: 'Weekly results' });
    server.current = report({ version: 2, modified_at: '2026-11-02T00:00:00.000Z', title: 'Renamed elsewhere' });
    await refetch(store);
    expect(await screen.findByText('You saved a newer version of this report.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save as new version' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Load new version' }));
    expect(await screen.findByRole('heading', { name: 'Renamed elsewhere' })).toBeTruthy();
    expect(screen.queryByText('You saved a newer version of this report.')).toBeNull();
  });

  it('shows the notice with the other user after a refused save, and keeps the changes as a new view', async () => {
    const anna = { id: 8, name: 'Anna' };
    const { store, server } = await renderPage(report(), (body) =>
      body.saveAsNewView
        ? json({ data: report({ id: NEW_VIEW, version: 1, config: body.config as Report['config'] }) })
        : json({ error: 'Another user saved a newer version of this report', version: 2, modifiedBy: anna }, 409),
    );
    await screen.findByRole('heading', { name: 'Weekly results' });
    const key = reportKey('explorer_view', ID);
    act(() => {
      store.dispatch(documentEdited({ key, config: { dataset: 'list_members', dateField: 'left_at' } }));
    });
    server.current = report({ version: 2, modified_at: '2026-11-02T00:00:00.000Z', modified_by: anna });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Anna saved a newer version of this report.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save as new version' }));
    expect(await screen.findByText('The new view')).toBeTruthy();
    expect(server.saves.at(-1)).toMatchObject({ saveAsNewView: true, version: 1 });
    expect(selectDocument(store.getState(), key)?.dirty).toBe(false);
  });
});
