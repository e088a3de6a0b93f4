/**
 * The statements a fresh DuckDB instance runs while it waits for its first dataset. Chromium compiles a
 * WebAssembly function only when it is first called, so a fresh instance's first load and first queries also pay
 * for compiling the code they reach (at 10^6 rows, the first queries of a cold open took 70–100 ms against 25–45
 * for their like a moment later; bench/README.md). Run while the dataset is still on its way, that compiling is
 * done before it is needed.
 *
 * A small table of the dataset files' column types (dictionary-encoded strings, dates, 32-bit integers, doubles),
 * loaded the way a dataset is (Arrow IPC inserted into the compressed database), and statements of the shapes the
 * widgets' SQL builders write (src/engine/queries.ts): two periods over a date range, weekly buckets, top values
 * with the rest as Other, FILTER aggregates, arg_max, a running sum over a day series, distinct values.
 */
import {
  type Data,
  DateDay,
  Dictionary,
  Field,
  Float64,
  Int32,
  Int8,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  makeVector,
  tableToIPC,
} from 'apache-arrow';

/** The warm-up's table: not a valid dataset table name (those start with a letter), so never a dataset's. */
export const WARM_UP_TABLE = '_warm_up';

const ROWS = 20_000;
const TYPES = ['email', 'sms', 'push', 'transactional'];
const NAMES = Array.from({ length: 53 }, (_, i) => `campaign ${i}`);
/** 2026-01-01 in days since 1970-01-01. */
const FIRST_DAY = 20_454;

/**
 * A dictionary-encoded string column of `values`, row i holding `values[i % values.length]`. Its strings are laid
 * out by hand: Arrow's builders (`vectorFromArray`) generate code at run time, which the page's
 * Content-Security-Policy forbids in the worker.
 */
function dictionaryColumn(values: string[]): Data {
  const bytes = values.map((value) => new TextEncoder().encode(value));
  const valueOffsets = new Int32Array(values.length + 1);
  bytes.forEach((value, i) => (valueOffsets[i + 1] = valueOffsets[i] + value.length));
  const strings = new Uint8Array(valueOffsets[values.length]);
  bytes.forEach((value, i) => strings.set(value, valueOffsets[i]));
  const dictionary = makeVector(
    makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets, data: strings }),
  );
  const indices = Int8Array.from({ length: ROWS }, (_, i) => i % values.length);
  const type = new Dictionary(new Utf8(), new Int8());
  return makeData({ type, length: ROWS, nullCount: 0, data: indices, dictionary });
}

/** A column of the server's fixed-width kinds (a date is days since 1970-01-01), row i holding `value(i)`. */
function fixedColumn(kind: 'date' | 'integer' | 'double', value: (i: number) => number): Data {
  const numbers = Array.from({ length: ROWS }, (_, i) => value(i));
  const base = { length: ROWS, nullCount: 0 };
  if (kind === 'double') return makeData({ ...base, type: new Float64(), data: Float64Array.from(numbers) });
  const data = Int32Array.from(numbers);
  return kind === 'date'
    ? makeData({ ...base, type: new DateDay(), data })
    : makeData({ ...base, type: new Int32(), data });
}

/** The warm-up's rows as a dataset's file holds them: an Arrow IPC stream of the types the server writes. */
export function warmUpFile(): Uint8Array {
  const columns: Record<string, Data> = {
    event_date: fixedColumn('date', (i) => FIRST_DAY + (i % 120)),
    campaign_type: dictionaryColumn(TYPES),
    campaign_name: dictionaryColumn(NAMES),
    sent: fixedColumn('integer', (i) => i % 1000),
    delivered: fixedColumn('integer', (i) => i % 900),
    opens: fixedColumn('integer', (i) => i % 300),
    revenue: fixedColumn('double', (i) => (i % 17) * 1.5),
  };
  const fields = Object.entries(columns).map(([name, data]) => new Field(name, data.type, false));
  const schema = new Schema(fields);
  const children = Object.values(columns);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: ROWS, nullCount: 0, children }));
  return tableToIPC(new Table(batch), 'stream');
}

const T = `"${WARM_UP_TABLE}"`;
const periods = (filter: string) =>
  `SELECT 'main' AS __period, CAST(event_date AS DATE) AS __d, * FROM ${T} ` +
  `WHERE CAST(event_date AS DATE) BETWEEN DATE '2026-02-20' AND DATE '2026-04-30'${filter} ` +
  `UNION ALL SELECT 'compare' AS __period, CAST(event_date AS DATE) AS __d, * FROM ${T} ` +
  `WHERE CAST(event_date AS DATE) BETWEEN DATE '2026-01-01' AND DATE '2026-02-19'${filter}`;

/** The statements, in order; each is cheap over the table's rows, and each reaches code the others do not. */
export const WARM_UP_STATEMENTS = [
  // KPI cards and funnels: two periods, sums and ratios.
  `WITH base AS (${periods(` AND (campaign_type IS NULL OR CAST(campaign_type AS VARCHAR) NOT IN ('transactional'))`)})
   SELECT __period AS period, CAST(SUM(sent) AS DOUBLE) AS sent,
     CAST(SUM(opens) / NULLIF(SUM(delivered), 0) AS DOUBLE) AS open_rate, CAST(SUM(revenue) AS DOUBLE) AS revenue
   FROM base GROUP BY __period ORDER BY period DESC`,
  // Time series by week, per top value with the rest as Other, compared by FILTER.
  `WITH top_values AS (SELECT campaign_name AS value, SUM(revenue) AS revenue FROM ${T}
     WHERE campaign_name IS NOT NULL GROUP BY 1 ORDER BY 2 DESC NULLS LAST, 1 LIMIT 12),
   base AS (${periods('')}),
   keyed AS (SELECT *, strftime((__d - CAST((dayofweek(__d) - 1 + 7) % 7 AS INTEGER)), '%Y-%m-%d') AS __k0,
     CASE WHEN COALESCE(campaign_name IN (SELECT value FROM top_values), false) THEN CAST(campaign_name AS VARCHAR) END
       AS __k1 FROM base)
   SELECT __k0 AS bucket, __k1 AS value, CAST(SUM(revenue) FILTER (WHERE __period = 'main') AS DOUBLE) AS revenue,
     CAST(SUM(revenue) FILTER (WHERE __period = 'compare') AS DOUBLE) AS revenue__compare
   FROM keyed GROUP BY __k0, __k1 ORDER BY bucket, revenue DESC NULLS LAST, value`,
  // High and low values.
  `WITH grouped AS (SELECT campaign_name AS value, CAST(SUM(opens) / NULLIF(SUM(delivered), 0) AS DOUBLE) AS rate
     FROM ${T} GROUP BY 1)
   SELECT arg_max(CAST(value AS VARCHAR), rate) FILTER (WHERE rate = (SELECT max(rate) FROM grouped)) AS high_value,
     max(rate) AS high, arg_min(CAST(value AS VARCHAR), rate) AS low_value, min(rate) AS low
   FROM (SELECT * FROM grouped ORDER BY value)`,
  // Target progress: a running sum over a day series.
  `WITH days AS (SELECT CAST(day AS DATE) AS day, row_number() OVER (ORDER BY day) AS n
     FROM generate_series(DATE '2026-02-01', DATE '2026-03-31', INTERVAL 1 DAY) AS t(day)),
   daily AS (SELECT CAST(event_date AS DATE) AS day, CAST(SUM(revenue) AS DOUBLE) AS revenue FROM ${T} GROUP BY 1)
   SELECT strftime(days.day, '%Y-%m-%d') AS day, daily.revenue AS value,
     CAST(SUM(COALESCE(daily.revenue, 0)) OVER (ORDER BY days.day ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
       AS DOUBLE) AS cumulative, CAST(1000 * days.n / 59 AS DOUBLE) AS expected
   FROM days LEFT JOIN daily ON daily.day = days.day ORDER BY days.day`,
  // A filter's distinct values.
  `SELECT DISTINCT CAST(campaign_name AS VARCHAR) AS value FROM ${T}
   WHERE CAST(campaign_name AS VARCHAR) IS NOT NULL AND CAST(campaign_name AS VARCHAR) <> '' ORDER BY value LIMIT 10000`,
];
