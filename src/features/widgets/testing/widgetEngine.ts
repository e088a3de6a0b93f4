import { configure } from '@testing-library/react';
import { tableToIPC } from 'apache-arrow';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { type DatasetSchema, type Field } from '../../../contracts/datasets';
import { type Widget } from '../../../contracts/reports';
import { type DayRange } from '../../../engine/dates';
import { campaignColumns, campaignRows, campaignSchema, tableSql } from '../../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../../engine/testing/nodeDuckdb';
import { setQueryRunner } from '../../../store/engineApi';
import { setupStore } from '../../../store/store';
import { createPool, type EnginePool } from '../../../workers/pool';
import { spawnNodeWorker } from '../../../workers/testing/spawnNodeWorker';
import { downloadSucceeded } from '../../datasets/datasetsSlice';
import { type WidgetContext } from '../types';

export const WORKSPACE_ID = 7;
const VERSION = `${WORKSPACE_ID}:v1`;

/** The engine fixture with the formats and features the widgets show: percentages, euros, a negative measure. */
export const widgetSchema: DatasetSchema = {
  ...campaignSchema,
  fields: campaignSchema.fields.map((field): Field => {
    if (field.id === 'open_rate') return { ...field, name: 'Open rate', format: 'percent' };
    if (field.id === 'revenue') return { ...field, name: 'Revenue', format: 'currency' };
    if (field.id === 'sent') return { ...field, name: 'Sent' };
    // The fixture has no bounce column: delivered stands in for a metric where lower is better.
    if (field.id === 'delivered') return { ...field, name: 'Delivered', features: ['negative_measure'] };
    return field;
  }),
};

type Conn = Awaited<ReturnType<typeof openNodeDuckdb>>;

export interface WidgetEngine {
  /** The tests' own hand-written queries, on a separate DuckDB holding the same rows. */
  sql: (text: string) => Record<string, unknown>[];
  /** The fixture table as the Arrow file the server sends. */
  fileBytes: () => Uint8Array;
  /** The engine's worker pool, when started with one: a downloaded file goes here. */
  pool: EnginePool | null;
  /** Stops the pool's worker, if any (call in afterAll). */
  stop: () => void;
}

/**
 * The real query engine for widget tests: DuckDB-WASM in Node with the campaign fixture loaded, answering
 * the store's queries, so a rendered widget shows what the engine computes. With `pool`, queries go
 * through the production worker pool (a Node worker), so they also supersede and cancel each other as in
 * the app; without, they run straight on the test's own connection.
 */
export async function startWidgetEngine({ pool: withPool = false }: { pool?: boolean } = {}): Promise<WidgetEngine> {
  const conn: Conn = await openNodeDuckdb();
  for (const statement of tableSql(widgetSchema.tableId, campaignColumns, campaignRows())) conn.query(statement);
  const fileBytes = () => tableToIPC(conn.query(`SELECT * FROM ${widgetSchema.tableId}`), 'stream');
  const sql = (text: string) => rows(conn, text);
  if (!withPool) {
    setQueryRunner(async () => ({ query: async (request) => tableToIPC(conn.query(request.sql), 'stream') }));
    return { sql, fileBytes, pool: null, stop: () => undefined };
  }
  const pool = createPool({ size: 1, spawn: () => spawnNodeWorker() });
  pool.setDataset(widgetSchema.tableId, VERSION, fileBytes());
  // The worker starts and loads the file once here, so a widget's first query is as quick as its next.
  await pool.query({ dataset: widgetSchema.tableId, sql: `SELECT COUNT(*) FROM ${widgetSchema.tableId}` });
  setQueryRunner(async () => pool);
  // A shared machine runs several suites at once: give rendered results time beyond the 1 s default.
  configure({ asyncUtilTimeout: 15_000 });
  return { sql, fileBytes, pool, stop: () => pool.terminate() };
}

/** A store whose dataset is already downloaded into the engine. */
export function storeWithDataset() {
  const store = setupStore();
  store.dispatch(
    downloadSucceeded({
      key: `${WORKSPACE_ID}/${widgetSchema.id}`,
      version: VERSION,
      schema: widgetSchema,
      fetchedAt: Date.now(),
    }),
  );
  return store;
}

export const MAIN: DayRange = { start: '2024-02-01', end: '2024-02-29' };
export const COMPARE: DayRange = { start: '2024-01-03', end: '2024-01-31' };

export function widgetContext(overrides: Partial<WidgetContext> = {}): WidgetContext {
  return {
    scope: { workspaceId: WORKSPACE_ID },
    ranges: { main: { ...MAIN, preset: 'custom' }, compare: { ...COMPARE, preset: 'custom' } },
    filters: [],
    locale: 'en_US',
    weekStart: 1,
    flags: [],
    editMode: false,
    canEdit: true,
    ...overrides,
  };
}

export const fixtureWidget = (widget: Omit<Widget, 'id' | 'dataset'>): Widget => ({
  id: 'w1',
  dataset: widgetSchema.id,
  ...widget,
});

/**
 * For a test file: the real engine with its worker pool, started before the file's tests and stopped after.
 * Answers the runner of the tests' own hand-written queries.
 */
export function withWidgetEngine(): WidgetEngine['sql'] {
  let engine: WidgetEngine | undefined;
  beforeAll(async () => {
    engine = await startWidgetEngine({ pool: true });
  }, START_TIMEOUT_MS);
  afterAll(() => engine?.stop(), START_TIMEOUT_MS);
  return (text) => {
    if (!engine) throw new Error('The widget engine has not started');
    return engine.sql(text);
  };
}
