/**
 * `npm run bench:store`: the report document under redux-undo in the real store (bench/README.md).
 *
 * 10,000 edits to a 12-widget dashboard while 200 tabs, each with its loaded report document, sit in the store;
 * the median time per edit and per undo/redo (dispatch through the app's middleware and reducers, plus the
 * toolbar's selectors), and the memory the 100-entry history holds relative to one document.
 */
import { type Me } from '../src/contracts/me';
import { type DashboardConfig, type Report, type Widget } from '../src/contracts/reports';
import { authApi } from '../src/features/auth/authApi';
import { selectEditMode } from '../src/features/reports/state/dashboardSlice';
import { draftItem, persistReportDrafts } from '../src/features/reports/state/draftPersistence';
import {
  discarded,
  documentEdited,
  HISTORY_LIMIT,
  redone,
  remoteReportLoaded,
  reportKey,
  selectDocument,
  selectNewerVersion,
  type Snapshot,
  undone,
} from '../src/features/reports/state/reportDocumentSlice';
import { saveChoices } from '../src/features/reports/state/saveChoices';
import { MAX_TABS, selectWorkspaceTabs, tabOpened } from '../src/features/reports/state/tabsSlice';
import { setupStore } from '../src/store/store';

const EDITS = 10_000;
const UNDO_REDO = 1_000;
const WORKSPACE_ID = 1;
const MEMBER_ID = 1;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc (npm run bench:store does)');
// Development stores add immutability and serializability checks that walk the whole state on every action.
if (process.env.NODE_ENV !== 'production') throw new Error('Run with NODE_ENV=production (npm run bench:store does)');

const metrics = ['sends', 'opens', 'clicks', 'unique_opens', 'unique_clicks', 'revenue', 'orders', 'bounces'];
const dimensions = ['campaign_name', 'integration', 'list_name', 'market', 'subject_line', 'send_weekday'];

/** A widget as the canvas writes it: layout, metrics, filters and display settings. */
function widget(index: number): Widget {
  const type = ['campaign_performance', 'graph', 'bar', 'table', 'high_low', 'funnel', 'target', 'rich_text'][
    index % 8
  ];
  return {
    id: `w-${index}-${'x'.repeat(20)}`,
    type,
    title: `Widget ${index}: ${metrics[index % metrics.length]} by ${dimensions[index % dimensions.length]}`,
    dataset: index % 5 === 4 ? 'list_members' : 'campaign_metrics_by_send_date',
    dateField: 'send_date',
    metrics: metrics.slice(index % 4, (index % 4) + 4),
    dimensions: dimensions.slice(0, 2 + (index % 3)),
    groupBy: index % 2 ? ['integration'] : null,
    filters: [
      { member: 'market', operator: 'equals', values: ['NL', 'BE', 'DE'] },
      {
        or: [
          { member: 'list_name', operator: 'contains', values: ['newsletter'] },
          { member: 'orders', operator: 'gt', values: ['0'], aggregate: true },
        ],
      },
    ],
    content:
      type === 'rich_text'
        ? JSON.stringify([{ type: 'paragraph', children: [{ text: 'Weekly notes '.repeat(20) }] }])
        : undefined,
    layout: { x: (index % 4) * 6, y: Math.floor(index / 4) * 12, w: 6, h: 12, minW: 3, minH: 3, maxH: 105 },
    visualizationSettings: {
      display: { type: 'grid', orderBy: metrics[index % metrics.length], order: 'desc', palette: 'default' },
      chart: { chartType: index % 2 ? 'bar' : 'line', granularity: 'auto', groupMode: 'grouped', autoScaleYAxis: true },
    },
  };
}

function dashboard(title: string): DashboardConfig {
  return {
    title,
    widgets: Array.from({ length: 12 }, (_, index) => widget(index)),
    flags: { grid_layout: true },
    filters: [{ member: 'integration', operator: 'equals', values: ['mailchimp', 'klaviyo'] }],
    dateRanges: { main: { preset: 'last_90_days' }, compare: { preset: 'previous_period' } },
  };
}

function report(id: number): Report {
  const title = `Dashboard ${id}`;
  const stamp = '2026-11-01T10:00:00.000Z';
  const user = { id: 1, name: 'Demo User' };
  return {
    id,
    workspace_id: WORKSPACE_ID,
    type: 'dashboard',
    title,
    dataset: 'campaign_metrics_by_send_date',
    config: dashboard(title),
    version: 1,
    owner: user,
    created_at: stamp,
    created_by: user,
    modified_at: stamp,
    modified_by: user,
    last_opened_at: stamp,
    access_level: 'full_access',
    share_level: 'workspace',
  };
}

/** The edits the page makes, each a new config sharing every untouched part with the previous one. */
function edit(config: DashboardConfig, step: number): DashboardConfig {
  const target = step % config.widgets.length;
  const widgets = config.widgets;
  switch (step % 4) {
    case 0: // a widget dragged on the canvas
      return {
        ...config,
        widgets: widgets.map((item, index) =>
          index === target && item.layout ? { ...item, layout: { ...item.layout, y: item.layout.y + 1 } } : item,
        ),
      };
    case 1: // a widget configured in the drawer
      return {
        ...config,
        widgets: widgets.map((item, index) => (index === target ? { ...item, title: `Renamed ${step}` } : item)),
      };
    case 2: // a date range applied from the picker
      return {
        ...config,
        dateRanges: { ...config.dateRanges, main: { preset: step % 8 === 2 ? 'last_30_days' : 'last_7_days' } },
      };
    default: // a global filter changed
      return { ...config, filters: [{ member: 'integration', operator: 'equals', values: [`integration-${step}`] }] };
  }
}

const median = (values: Float64Array) => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)];
};
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

function heapUsed(): number {
  for (let round = 0; round < 4; round += 1) gc!();
  return process.memoryUsage().heapUsed;
}

/** Heap held by what `build` returns, measured with the result kept alive. */
function heldBy<T>(build: () => T): { bytes: number; value: T } {
  const before = heapUsed();
  const value = build();
  const bytes = heapUsed() - before;
  return { bytes, value };
}

/** Object nodes of a JSON-like value, counting every path (what a deep copy would allocate). */
function countNodes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Object.values(value).reduce<number>((sum, child) => sum + countNodes(child), 0);
}

/** Distinct objects reachable from the values (a shared object counted once). */
function distinctNodes(values: unknown[]): number {
  const seen = new Set<object>();
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    Object.values(value).forEach(visit);
  };
  values.forEach(visit);
  return seen.size;
}

function run(withDrafts: boolean) {
  const store = setupStore();
  // Drafts are kept per signed-in user.
  store.dispatch(
    authApi.util.upsertQueryEntries([{ endpointName: 'getMe', arg: undefined, value: { memberId: MEMBER_ID } as Me }]),
  );
  const storage = new Map<string, string>();
  const stopDrafts = withDrafts
    ? persistReportDrafts({
        setItem: (key, value) => storage.set(key, value),
        removeItem: (key) => storage.delete(key),
      })
    : () => undefined;

  for (let id = 1; id <= MAX_TABS; id += 1) {
    store.dispatch(
      tabOpened({ workspaceId: WORKSPACE_ID, objectType: 'dashboard', objectId: id, title: `Dashboard ${id}` }),
    );
    store.dispatch(remoteReportLoaded({ key: reportKey('dashboard', id), report: report(id) }));
  }
  const edited = report(MAX_TABS);
  const key = reportKey('dashboard', MAX_TABS);

  // What the toolbar, notice and tab strip read after every action.
  const readToolbar = () => {
    const state = store.getState();
    const doc = selectDocument(state, key);
    selectNewerVersion(state, key);
    selectEditMode(state, key);
    selectWorkspaceTabs(state, WORKSPACE_ID);
    saveChoices(edited.access_level, edited.share_level);
    return doc;
  };

  // Warm up on another tab and drop its history: code compiled on the first edits lives on the heap too.
  const warmKey = reportKey('dashboard', 1);
  let warm = report(1).config as DashboardConfig;
  for (let step = 0; step < 2_000; step += 1) {
    warm = edit(warm, step);
    store.dispatch(documentEdited({ key: warmKey, config: warm }));
    store.dispatch(step % 3 ? undone({ key: warmKey }) : redone({ key: warmKey }));
    readToolbar();
  }
  store.dispatch(discarded({ key: warmKey }));

  // Allocated before the baseline so that only the history is measured.
  const editTimes = new Float64Array(EDITS);
  const undoTimes = new Float64Array(UNDO_REDO);
  const baseline = heapUsed();
  let config = edited.config as DashboardConfig;
  for (let step = 0; step < EDITS; step += 1) {
    config = edit(config, step);
    const start = performance.now();
    store.dispatch(documentEdited({ key, config }));
    readToolbar();
    editTimes[step] = performance.now() - start;
  }
  const afterEdits = heapUsed();

  for (let step = 0; step < UNDO_REDO; step += 1) {
    const start = performance.now();
    store.dispatch(step % 100 < 50 ? undone({ key }) : redone({ key }));
    readToolbar();
    undoTimes[step] = performance.now() - start;
  }

  // The floor: an action no reducer handles, through the same store (middleware, 15 slices) and selectors.
  const noopTimes = new Float64Array(UNDO_REDO);
  for (let step = 0; step < UNDO_REDO; step += 1) {
    const start = performance.now();
    store.dispatch({ type: 'bench/nothing' });
    readToolbar();
    noopTimes[step] = performance.now() - start;
  }

  const entry = store.getState().reportDocuments!.docs[key];
  const snapshots: Snapshot[] = [...entry.history.past, entry.history.present, ...entry.history.future];
  stopDrafts();
  return { editTimes, undoTimes, noopTimes, historyBytes: afterEdits - baseline, snapshots, storage, key, store };
}

const plain = run(false);
const drafts = run(true);

const oneDocument = report(MAX_TABS).config;
const copies = 200;
const perDocument = heldBy(() => Array.from({ length: copies }, () => structuredClone(oneDocument))).bytes / copies;
const deepHistory = heldBy(() => plain.snapshots.map((snapshot) => structuredClone(snapshot)));

const nodesPerDocument = countNodes(plain.snapshots[0]);
const distinct = distinctNodes(plain.snapshots);
const total = plain.snapshots.reduce((sum, snapshot) => sum + countNodes(snapshot), 0);
const draftBytes = drafts.storage.get(draftItem(MEMBER_ID, drafts.key))?.length ?? 0;

console.log(`bench:store — ${EDITS} edits to a 12-widget dashboard, ${MAX_TABS} open tabs, history ${HISTORY_LIMIT}`);
console.log(`node ${process.version}, ${new Date().toISOString()}`);
console.log('');
console.log('Time per action (dispatch through the store + toolbar selectors), median:');
console.log(`  edit                        ${us(median(plain.editTimes))}`);
console.log(`  undo / redo                 ${us(median(plain.undoTimes))}`);
console.log(`  an action nothing handles   ${us(median(plain.noopTimes))}  (the store's floor)`);
console.log(`  edit, drafts persisted      ${us(median(drafts.editTimes))}  (JSON draft ${draftBytes} chars)`);
console.log(`  undo / redo, drafts         ${us(median(drafts.undoTimes))}`);
console.log('');
console.log(`Memory (heapUsed after gc):`);
console.log(`  one document                ${mb(perDocument)}`);
console.log(
  `  history of ${plain.snapshots.length} snapshots    ${mb(plain.historyBytes)}  = ${(plain.historyBytes / perDocument).toFixed(1)} documents`,
);
console.log(
  `  the same as deep copies     ${mb(deepHistory.bytes)}  = ${(deepHistory.bytes / perDocument).toFixed(1)} documents`,
);
console.log(`  sharing saves               ${(deepHistory.bytes / Math.max(plain.historyBytes, 1)).toFixed(1)}×`);
console.log('');
console.log('Object references in the history:');
console.log(`  objects per document        ${nodesPerDocument}`);
console.log(`  objects if deep copies      ${total}`);
console.log(`  distinct objects            ${distinct}  = ${(distinct / nodesPerDocument).toFixed(2)} documents`);
console.log(`  shared                      ${(100 * (1 - distinct / total)).toFixed(1)} %`);
// Keep both histories alive until measured.
void plain.store;
void deepHistory.value;
