import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { tableFromJSON, tableToIPC } from 'apache-arrow';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type ExplorerConfig } from '../../contracts/reports';
import { setQueryRunner } from '../../store/engineApi';
import {
  MAIN,
  WORKSPACE_ID,
  type WidgetEngine,
  startWidgetEngine,
  storeWithDataset,
  widgetSchema,
} from '../widgets/testing/widgetEngine';
import { DATE_FIELD_DRAWER_TITLE, dateFieldHelp } from './DateFieldDrawer';
import { gridLayout } from './explorerEdits';
import { ExplorerView, explorerMessages, gridColumns, pivotCutMessage } from './ExplorerView';
import { exportLabels } from './ExportMenu';
import type * as WorkerApi from './exportWorkerApi';

jest.setTimeout(60_000);
// jsdom has no Worker: the export's writer runs in the test's thread, the same code the worker runs.
jest.mock('./exportClient', () => ({
  startExportWorker: () => {
    const api = jest.requireActual<typeof WorkerApi>('./exportWorkerApi').createExportWorkerApi();
    return { call: (run: (remote: typeof api) => Promise<unknown>) => run(api), terminate: () => undefined };
  },
}));

let engine: WidgetEngine | undefined;
beforeAll(async () => {
  engine = await startWidgetEngine();
}, START_TIMEOUT_MS);

const byCountry: ExplorerConfig = {
  dataset: widgetSchema.id,
  dateRanges: { main: { ...MAIN, preset: 'custom' } },
  columns: [{ colId: 'country', rowGroup: true }, { colId: 'campaign_name', rowGroup: true }, { colId: 'sent' }],
  valueColumns: ['sent', 'open_rate'],
};
const inMain = `send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'`;

function renderView(config: ExplorerConfig, canEdit = true) {
  const onEdit = jest.fn();
  const view = renderWithProviders(
    <ExplorerView config={config} scope={{ workspaceId: WORKSPACE_ID }} canEdit={canEdit} onEdit={onEdit} />,
    { store: storeWithDataset() },
  );
  type Edit = (current: ExplorerConfig) => ExplorerConfig;
  return { ...view, onEdit, applied: () => onEdit.mock.calls.map(([edit]) => (edit as Edit)(config)) };
}

test('the total row count is the number of top-level groups the engine finds', async () => {
  const [{ n }] = engine!.sql(`SELECT COUNT(DISTINCT country) AS n FROM campaigns_fixture WHERE ${inMain}`);
  renderView(byCountry);
  expect(await screen.findByText(`Rows: ${String(n)}`)).toBeTruthy();
});

test('no matching rows: the message and a Clear filters link that clears the filter model', async () => {
  const { applied } = renderView({ ...byCountry, filterModel: { country: { filterType: 'set', values: [] } } });
  expect(await screen.findByText(explorerMessages.noRows)).toBeTruthy();
  expect(screen.getByText('Rows: 0')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: explorerMessages.clearFilters }));
  expect(applied()[0].filterModel).toBeNull();
});

test('a bad saved filter model falls back to no filters', async () => {
  const advanced = { country: { filterType: 'join', type: 'AND', conditions: [] } };
  const [{ n }] = engine!.sql(`SELECT COUNT(DISTINCT country) AS n FROM campaigns_fixture WHERE ${inMain}`);
  renderView({ ...byCountry, filterModel: advanced });
  expect(await screen.findByText(`Rows: ${String(n)}`)).toBeTruthy();
});

test('a failing query shows N/A as the total', async () => {
  // A dimension the dataset lacks cannot be grouped by: the engine refuses the query.
  renderView({ ...byCountry, columns: [{ colId: 'not_a_field', rowGroup: true }] });
  expect(await screen.findByText('Rows: N/A')).toBeTruthy();
});

test('read-only: the columns panel cannot open; with write access it edits the grouping', async () => {
  const readOnly = renderView(byCountry, false);
  await screen.findByText(/Rows: \d/);
  expect((screen.getByRole('button', { name: 'Columns' }) as HTMLButtonElement).disabled).toBe(true);
  readOnly.unmount();

  const { applied } = renderView(byCountry);
  await screen.findByText(/Rows: \d/);
  fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
  fireEvent.click(await screen.findByRole('checkbox', { name: 'send_weekday' }));
  await waitFor(() => expect(applied()).toHaveLength(1));
  expect(
    applied()[0]
      .columns?.filter((c) => c.rowGroup)
      .map((c) => c.colId),
  ).toEqual(['country', 'campaign_name', 'send_weekday']);
});

test("the date-field chip opens 'Select date dimensions' with the field's help; read-only it does not", async () => {
  const readOnly = renderView(byCountry, false);
  fireEvent.click(await screen.findByLabelText('Date field: send_date'));
  expect(screen.queryByText(DATE_FIELD_DRAWER_TITLE)).toBeNull();
  readOnly.unmount();

  const { applied } = renderView(byCountry);
  fireEvent.click(await screen.findByLabelText('Date field: send_date'));
  expect(await screen.findByText(DATE_FIELD_DRAWER_TITLE)).toBeTruthy();
  expect(screen.getByText(dateFieldHelp.send_date)).toBeTruthy();
  expect(screen.getByRole('radio', { name: /send_date/ })).toHaveProperty('checked', true);
  expect(applied()).toEqual([]);
});

test('Export to CSV downloads every group row and the totals row; a cancelled export downloads nothing', async () => {
  const created: Blob[] = [];
  Object.assign(URL, {
    createObjectURL: jest.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    }),
    revokeObjectURL: jest.fn(),
  });
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  const [{ n }] = engine!.sql(
    `SELECT COUNT(*) AS n FROM (SELECT DISTINCT country, campaign_name FROM campaigns_fixture WHERE ${inMain})`,
  );
  renderView({ ...byCountry, title: 'Weekly' });
  await screen.findByText(/Rows: \d/);
  // While an export runs its progress shows with a Cancel button; cancelled, the menu is back and no file comes.
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(await screen.findByText(exportLabels.xlsx));
  expect(screen.getByLabelText('Export progress')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByLabelText('Export progress')).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Export' }));
  fireEvent.click(await screen.findByText(exportLabels.csv));
  await waitFor(() => expect(created).toHaveLength(1));
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(created[0]);
  });
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('country,campaign_name,Sent,Open rate');
  expect(lines).toHaveLength(1 + Number(n) + 1);
  expect(lines[lines.length - 1].startsWith('Total,')).toBe(true);
  expect(created.map((blob) => blob.type)).toEqual(['text/csv']);
  expect(click).toHaveBeenCalled();
  click.mockRestore();
});

test('a pivot with more values than 100 columns hold says it was cut; one that fits says nothing', async () => {
  const [{ n }] = engine!.sql(`SELECT COUNT(DISTINCT send_date) AS n FROM campaigns_fixture WHERE ${inMain}`);
  const byDay: ExplorerConfig = {
    ...byCountry,
    pivotMode: true,
    columns: [...(byCountry.columns ?? []), { colId: 'send_date', pivot: true }],
    valueColumns: ['sent', 'open_rate', 'delivered', 'open'],
  };
  // Two row groups and four values leave room for 24 days (of the month's 29).
  const cut = renderView(byDay);
  expect(await screen.findByText(pivotCutMessage(24, Number(n)))).toBeTruthy();
  cut.unmount();

  renderView({
    ...byDay,
    columns: [
      { colId: 'country', rowGroup: true },
      { colId: 'send_weekday', pivot: true },
    ],
  });
  await screen.findByText(/Rows: \d/);
  expect(screen.queryByText(/The pivot was cut/)).toBeNull();
});

test("a pivot's count and rows are asked with its values and run once each, sharing the values' run", async () => {
  // The production pool (a Node worker): its counters say what ran and what joined a query already running.
  const pooled = await startWidgetEngine({ pool: true });
  try {
    const before = pooled.pool!.stats();
    const [{ n }] = engine!.sql(`SELECT COUNT(DISTINCT country) AS n FROM campaigns_fixture WHERE ${inMain}`);
    renderView({
      ...byCountry,
      pivotMode: true,
      columns: [
        { colId: 'country', rowGroup: true },
        { colId: 'send_weekday', pivot: true },
      ],
    });
    expect(await screen.findByText(`Rows: ${String(n)}`)).toBeTruthy();
    // The values, the count and the first block of rows.
    await waitFor(() => expect(pooled.pool!.stats().executions - before.executions).toBe(3));
    // The count and the rows each found the values by joining the values query while it ran.
    expect(pooled.pool!.stats().sharedHits - before.sharedHits).toBe(2);
  } finally {
    pooled.stop();
    engine = await startWidgetEngine();
  }
});

test('a date dimension filters by date: the panel stores the option and the grid counts the rows it keeps', async () => {
  const { applied } = renderView(byCountry);
  await screen.findByText(/Rows: \d/);
  fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
  const form = await screen.findByRole('group', { name: 'Filter send_date' });
  fireEvent.change(within(form).getByLabelText('Filter send_date: option'), { target: { value: 'inRange' } });
  fireEvent.change(within(form).getByLabelText('Filter send_date: date'), { target: { value: '2024-02-10' } });
  fireEvent.change(within(form).getByLabelText('Filter send_date: to date'), { target: { value: '2024-02-12' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
  const filter = { filterType: 'date', type: 'inRange', dateFrom: '2024-02-10', dateTo: '2024-02-12' };
  // The grid applies it at once; the report edit follows the filter model's debounce.
  await waitFor(() => expect(applied()[0]?.filterModel).toEqual({ send_date: filter }));
  cleanup();

  const [{ n }] = engine!.sql(
    `SELECT COUNT(*) AS n FROM (SELECT DISTINCT campaign_name FROM campaigns_fixture WHERE ${inMain} AND send_date > DATE '2024-02-20')`,
  );
  const after = { send_date: { filterType: 'date', type: 'greaterThan', dateFrom: '2024-02-20', dateTo: null } };
  renderView({ ...byCountry, columns: [{ colId: 'campaign_name', rowGroup: true }], filterModel: after });
  expect(await screen.findByText(`Rows: ${String(n)}`)).toBeTruthy();
});

test('pinned columns: left pins come first and stay frozen, right pins go last', () => {
  const config: ExplorerConfig = {
    ...byCountry,
    valueColumns: ['sent', 'open_rate', 'revenue'],
    columns: [
      { colId: 'country', rowGroup: true },
      { colId: 'sent', pinned: 'right' },
      { colId: 'open_rate' },
      { colId: 'revenue', pinned: 'left' },
    ],
  };
  const { columns, frozen } = gridColumns(widgetSchema, config, gridLayout(config), []);
  expect(columns.map((column) => column.id)).toEqual(['__group', 'revenue', 'open_rate', 'sent']);
  expect(frozen).toBe(2);
});

test('pivot result columns pin by their own colId: a left pin comes first and stays frozen', () => {
  const config: ExplorerConfig = {
    ...byCountry,
    pivotMode: true,
    valueColumns: ['sent', 'open_rate'],
    columns: [
      { colId: 'country', rowGroup: true },
      { colId: 'send_weekday', pivot: true },
      { colId: 'Tue__open_rate', pinned: 'left' },
      { colId: 'Mon__sent', pinned: 'right' },
    ],
  };
  const cells = ['Mon__sent', 'Mon__open_rate', 'Tue__sent', 'Tue__open_rate'];
  const { columns, frozen } = gridColumns(widgetSchema, config, gridLayout(config), cells);
  expect(columns.map((column) => column.id)).toEqual([
    '__group',
    'Tue__open_rate',
    'Mon__open_rate',
    'Tue__sent',
    'Mon__sent',
  ]);
  expect(frozen).toBe(2);
});

test('a block of rows that fails to load fails the grid: the total shows N/A, though the count succeeded', async () => {
  // The engine counts, but refuses every paged query (the rows' blocks).
  setQueryRunner(async () => ({
    query: async ({ sql }) => {
      if (/\bLIMIT\b/.test(sql)) throw new Error('The row block failed');
      return tableToIPC(tableFromJSON(engine!.sql(sql)), 'stream');
    },
  }));
  try {
    renderView(byCountry);
    expect(await screen.findByText('Rows: N/A')).toBeTruthy();
  } finally {
    engine = await startWidgetEngine();
  }
});

test("the total row count shows '...' while the engine counts", async () => {
  // An engine that has not answered yet: the grid waits with its count unknown.
  setQueryRunner(async () => ({ query: () => new Promise<Uint8Array>(() => undefined) }));
  try {
    renderView(byCountry);
    expect(await screen.findByText('Rows: ...')).toBeTruthy();
    expect(screen.queryByText(explorerMessages.noRows)).toBeNull();
  } finally {
    // The fixture engine answers the tests after this one again.
    engine = await startWidgetEngine();
  }
});
