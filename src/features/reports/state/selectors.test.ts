/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type ReportSummary } from '../../../contracts/reports';
import { setupStore } from '../../../store/store';
import { reportsApi } from '../reportsApi';
import { newReportTitle, templateConfig, templatesFor } from '../templates';
import { loadReportsListState } from './reportsListPersistence';
import {
  DEFAULT_LIST_VIEW,
  initialReportsListState,
  reportListViewChanged,
  reportsListReducer,
  selectReportListView,
} from './reportsListSlice';
import {
  ageBucketOf,
  filterReports,
  needsTooltip,
  orderReports,
  selectAccessLevelOf,
  selectReportGroups,
} from './selectors';

const ME = 1;
const OTHER = 2;
let nextId = 1;
function report(title: string, over: Partial<ReportSummary> = {}): ReportSummary {
  const id = nextId++;
  const user = { id: ME, name: 'Me' };
  return {
    id,
    workspace_id: 3,
    type: 'dashboard',
    title,
    dataset: null,
    version: 1,
    owner: user,
    created_at: '2026-01-01T00:00:00Z',
    created_by: user,
    modified_at: '2026-01-01T00:00:00Z',
    modified_by: user,
    last_opened_at: null,
    access_level: 'full_access',
    share_level: 'private',
    ...over,
  };
}
const titles = (reports: readonly ReportSummary[]) => reports.map((item) => item.title);

describe('report list filters (spec 2 §2 Reports home)', () => {
  const mine = report('Weekly sales');
  const theirs = report('Sales by country', { created_by: { id: OTHER, name: 'Ann' } });
  const explorer = report('Open rates', { type: 'explorer_view' });
  const nobody = report('Imported', { created_by: null });
  const all = [mine, theirs, explorer, nobody];
  const none = { search: '', ownership: 'anyone', type: 'all' } as const;

  it('keeps everything with Anyone and no search', () => {
    expect(titles(filterReports(all, none, ME))).toEqual(titles(all));
  });

  it('searches titles without regard to case or surrounding spaces', () => {
    expect(titles(filterReports(all, { ...none, search: '  SALES ' }, ME))).toEqual([
      'Weekly sales',
      'Sales by country',
    ]);
  });

  it('Me keeps the reports the current user created; Not by me the others', () => {
    expect(titles(filterReports(all, { ...none, ownership: 'me' }, ME))).toEqual(['Weekly sales', 'Open rates']);
    expect(titles(filterReports(all, { ...none, ownership: 'notMe' }, ME))).toEqual(['Sales by country', 'Imported']);
  });

  it('filters by report type', () => {
    expect(titles(filterReports(all, { ...none, type: 'explorer_view' }, ME))).toEqual(['Open rates']);
    expect(titles(filterReports(all, { ...none, type: 'dashboard', ownership: 'me' }, ME))).toEqual(['Weekly sales']);
  });
});

describe('report list ordering', () => {
  const now = new Date(2026, 10, 22, 9, 30);
  const at = (daysAgo: number, hour = 8) => new Date(2026, 10, 22 - daysAgo, hour).toISOString();

  it('buckets by age: Today, Last 7 days, Last 30 days, Older', () => {
    expect(ageBucketOf(at(0, 0), now)).toBe('Today');
    expect(ageBucketOf(new Date(2026, 10, 21, 23, 59).toISOString(), now)).toBe('Last 7 days');
    expect(ageBucketOf(at(6), now)).toBe('Last 7 days');
    expect(ageBucketOf(at(7), now)).toBe('Last 30 days');
    expect(ageBucketOf(at(29), now)).toBe('Last 30 days');
    expect(ageBucketOf(at(30), now)).toBe('Older');
  });

  it('modifiedAt groups newest first and leaves out empty groups', () => {
    const reports = [
      report('Old', { modified_at: at(90) }),
      report('This morning', { modified_at: at(0, 7) }),
      report('Just now', { modified_at: at(0, 9) }),
      report('Last month', { modified_at: at(12) }),
    ];
    expect(orderReports(reports, 'modifiedAt', now).map((group) => [group.label, titles(group.reports)])).toEqual([
      ['Today', ['Just now', 'This morning']],
      ['Last 30 days', ['Last month']],
      ['Older', ['Old']],
    ]);
  });

  it('lastOpenedAt (the default) puts the most recently opened first and never-opened ones last', () => {
    const reports = [
      report('Never, new', { modified_at: at(1) }),
      report('Opened long ago', { last_opened_at: at(40) }),
      report('Never, old', { modified_at: at(50) }),
      report('Opened today', { last_opened_at: at(0) }),
    ];
    const [group] = orderReports(reports, DEFAULT_LIST_VIEW.order, now);
    expect(group.label).toBeNull();
    expect(titles(group.reports)).toEqual(['Opened today', 'Opened long ago', 'Never, new', 'Never, old']);
  });

  it('title is one flat alphabetical list, ignoring case and reading numbers as numbers', () => {
    const reports = [report('beta'), report('Report 10'), report('Alpha'), report('Report 9')];
    const groups = orderReports(reports, 'title', now);
    expect(groups).toHaveLength(1);
    expect(titles(groups[0].reports)).toEqual(['Alpha', 'beta', 'Report 9', 'Report 10']);
  });

  it('gives labels longer than 20 characters a tooltip', () => {
    expect(needsTooltip('x'.repeat(20))).toBe(false);
    expect(needsTooltip('x'.repeat(21))).toBe(true);
  });
});

describe('report list order and filters per workspace', () => {
  it('starts at lastOpenedAt, Anyone, all types, and changes one workspace only', () => {
    const state = reportsListReducer(
      initialReportsListState,
      reportListViewChanged({ workspaceId: 4, view: { order: 'title', ownership: 'me' } }),
    );
    expect(selectReportListView({ reportsList: state }, 4)).toEqual({ order: 'title', ownership: 'me', type: 'all' });
    expect(selectReportListView({ reportsList: state }, 5)).toEqual(DEFAULT_LIST_VIEW);
  });

  it('reads stored views back, each unknown value falling back to its default', () => {
    const entries: Record<string, string> = {
      'reportListView:4': JSON.stringify({ order: 'modifiedAt', ownership: 'nobody', type: 'explorer_view' }),
      'reportListView:5': 'not json',
    };
    const keys = Object.keys(entries);
    const state = loadReportsListState({
      length: keys.length,
      key: (index) => keys[index] ?? null,
      getItem: (key) => entries[key] ?? null,
    });
    expect(state.byWorkspace).toEqual({ 4: { order: 'modifiedAt', ownership: 'anyone', type: 'explorer_view' } });
  });
});

describe('report templates', () => {
  it('offers the beta grid dashboard only with the new_dashboard flag', () => {
    expect(templatesFor([]).map((template) => template.title)).toEqual(['Dashboard', 'Explorer view']);
    expect(templatesFor(['new_dashboard']).map((template) => template.title)).toEqual([
      'Dashboard',
      'Grid dashboard',
      'Explorer view',
    ]);
  });

  it('titles a new report with the template title and the date', () => {
    const [dashboard] = templatesFor([]);
    expect(newReportTitle(dashboard, new Date(2026, 10, 2))).toBe('Dashboard (02-11-2026)');
  });

  it('starts dashboards in the workspace’s layout and explorer views on send-date campaign metrics', () => {
    const [dashboard, grid, explorer] = templatesFor(['new_dashboard']);
    expect(templateConfig(dashboard, [], 'T')).toEqual({ title: 'T', widgets: [], flags: [] });
    expect(templateConfig(dashboard, ['grid_layout'], 'T')).toEqual({
      title: 'T',
      widgets: [],
      flags: ['grid_layout'],
    });
    expect(templateConfig(grid, [], 'T')).toEqual({ title: 'T', widgets: [], flags: ['grid_layout'] });
    expect(templateConfig(explorer, [], 'T')).toEqual({ title: 'T', dataset: 'campaign_metrics_by_send_date' });
  });
});

describe('the report list read from the server answer', () => {
  const WORKSPACE = 3;
  let cleanup: () => void = () => undefined;
  afterEach(() => cleanup());

  /** A store holding the workspace's list as the server answered it. */
  async function storeWith(reports: ReportSummary[]) {
    const { restore } = stubNetwork(() => json({ data: reports }));
    const store = setupStore();
    const request = store.dispatch(reportsApi.endpoints.getReports.initiate(WORKSPACE));
    await request;
    cleanup = () => {
      request.unsubscribe();
      store.dispatch(reportsApi.util.resetApiState());
      restore();
    };
    return store;
  }

  it('is filtered, ordered and grouped by the workspace’s view, computed once per answer and view', async () => {
    const today = report('Today’s plan', { modified_at: '2026-11-24T12:00:00Z' });
    const older = report('Old plan', { modified_at: '2026-01-05T12:00:00Z', created_by: { id: OTHER, name: 'O' } });
    const store = await storeWith([older, today]);
    store.dispatch(reportListViewChanged({ workspaceId: WORKSPACE, view: { order: 'modifiedAt' } }));
    const groups = selectReportGroups(store.getState(), WORKSPACE, '', ME, '2026-11-24');
    expect(groups.map((group) => [group.label, titles(group.reports)])).toEqual([
      ['Today', ['Today’s plan']],
      ['Older', ['Old plan']],
    ]);
    expect(selectReportGroups(store.getState(), WORKSPACE, '', ME, '2026-11-24')).toBe(groups);
    expect(titles(selectReportGroups(store.getState(), WORKSPACE, 'OLD', ME, '2026-11-24')[0].reports)).toEqual([
      'Old plan',
    ]);
    store.dispatch(reportListViewChanged({ workspaceId: WORKSPACE, view: { ownership: 'me' } }));
    expect(selectReportGroups(store.getState(), WORKSPACE, '', ME, '2026-11-24')).toEqual([
      { label: 'Today', reports: [today] },
    ]);
  });

  it('gives each report its access level, and read-only to one the list does not know yet', async () => {
    const shared = report('Shared', { access_level: 'read' });
    const mine = report('Mine', { access_level: 'read_write' });
    const levelOf = selectAccessLevelOf((await storeWith([shared, mine])).getState(), WORKSPACE);
    expect(levelOf('dashboard', mine.id)).toBe('read_write');
    expect(levelOf('dashboard', shared.id)).toBe('read');
    expect(levelOf('explorer_view', mine.id)).toBe('read');
    expect(selectAccessLevelOf(setupStore().getState(), WORKSPACE)('dashboard', mine.id)).toBe('read');
  });
});
