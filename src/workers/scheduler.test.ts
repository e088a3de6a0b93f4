import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { type MetricsMerge } from '../engine/queries';
import { type EngineWorkerApi } from './protocol';
import { createResultCache } from './resultCache';
import { createScheduler } from './scheduler';
import { type WorkerHandle } from './workerSlots';

/** One worker whose queries wait until the test answers them in order; its DuckDB opens when `open` is called. */
function scriptedWorker() {
  const sql: string[] = [];
  const cancelled: string[] = [];
  const answers: { resolve(bytes: Uint8Array): void; reject(error: unknown): void }[] = [];
  let open: (version: string) => void = () => undefined;
  const opened = new Promise<string>((resolve) => (open = resolve));
  const handle: WorkerHandle = {
    api: {
      version: () => opened,
      query: (statement: string) =>
        new Promise<Uint8Array>((resolve, reject) => {
          sql.push(statement);
          answers.push({ resolve, reject });
        }),
      cancel: async (queryId: string) => {
        cancelled.push(queryId);
        return true;
      },
      warmUp: async () => undefined,
    } as unknown as EngineWorkerApi,
    terminate: () => undefined,
    onExit: () => undefined,
  };
  const answerNext = async (bytes: Uint8Array = new Uint8Array([1])) => {
    answers.shift()?.resolve(bytes);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const failNext = async (error: unknown) => {
    answers.shift()?.reject(error);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { sql, cancelled, handle, answerNext, failNext, open: () => open('v-test') };
}

/** `now`: the scheduler's clock, which times the queries. */
function setup({ opened = true, now = (): number => 0 }: { opened?: boolean; now?: () => number } = {}) {
  const worker = scriptedWorker();
  if (opened) worker.open();
  const cache = createResultCache({ limit: 1_000, freshMs: 1_000, now: () => 0 });
  const scheduler = createScheduler({
    spawn: () => worker.handle,
    size: 1,
    hangMs: 60_000,
    cache,
    datasets: new Map(),
    now,
  });
  return { worker, scheduler };
}

describe('the query scheduler', () => {
  it('runs waiting queries by priority, then arrival', async () => {
    const { worker, scheduler } = setup();
    const done = [
      scheduler.query({ sql: 'SELECT 1' }),
      scheduler.query({ sql: 'SELECT prefetch', priority: 'prefetch' }),
      scheduler.query({ sql: 'SELECT lookup', priority: 'lookup' }),
      scheduler.query({ sql: 'SELECT visible' }),
    ];
    expect(scheduler.queued()).toBe(3);
    for (let answered = 0; answered < 4; answered++) await worker.answerNext();
    await Promise.all(done);
    expect(worker.sql).toEqual(['SELECT 1', 'SELECT visible', 'SELECT lookup', 'SELECT prefetch']);
  });

  it('runs the longest waiting query first once queries of the same shape have been timed (a date change)', async () => {
    let clock = 0;
    const { worker, scheduler } = setup({ now: () => clock });
    const widgets = (day: string) => ({
      kpi: `SELECT sum(sent) FROM t WHERE day >= '${day}'`,
      series: `SELECT day, sum(sent) FROM t WHERE day >= '${day}' GROUP BY day LIMIT 90`,
      table: `SELECT country, sum(sent) FROM t WHERE day >= '${day}' GROUP BY country LIMIT 12`,
    });
    const answerAfter = async (ms: number) => {
      clock += ms;
      await worker.answerNext();
    };
    const first = widgets('2026-08-01');
    // Not timed yet: by arrival. The series takes 50 ms, the table 30.
    const firstBurst = Promise.all([first.kpi, first.table, first.series].map((sql) => scheduler.query({ sql })));
    await answerAfter(10);
    await answerAfter(30);
    await answerAfter(50);
    await firstBurst;
    expect(worker.sql).toEqual([first.kpi, first.table, first.series]);

    const next = widgets('2026-09-01');
    const nextBurst = Promise.all([next.kpi, next.table, next.series].map((sql) => scheduler.query({ sql })));
    for (let answered = 0; answered < 3; answered++) await answerAfter(1);
    await nextBurst;
    // The KPI ran at once on the idle worker; of the two waiting, the series (50 ms last time) went first.
    expect(worker.sql.slice(3)).toEqual([next.kpi, next.series, next.table]);
  });

  it('keeps a starting worker for visible queries: a lookup asked first waits until DuckDB has opened', async () => {
    const { worker, scheduler } = setup({ opened: false });
    const lookup = scheduler.query({ sql: 'SELECT lookup', priority: 'lookup' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(worker.sql).toEqual([]);
    const visible = scheduler.query({ sql: 'SELECT visible' });
    expect(worker.sql).toEqual(['SELECT visible']);
    worker.open();
    await worker.answerNext();
    expect(worker.sql).toEqual(['SELECT visible', 'SELECT lookup']);
    await worker.answerNext();
    await Promise.all([lookup, visible]);
  });

  it('runs the same query once for everyone asking, then answers it from the cache', async () => {
    const { worker, scheduler } = setup();
    const both = Promise.all([scheduler.query({ sql: 'SELECT 1' }), scheduler.query({ sql: 'SELECT 1' })]);
    await worker.answerNext();
    await both;
    await scheduler.query({ sql: 'SELECT 1' });
    expect(worker.sql).toEqual(['SELECT 1']);
    expect(scheduler.counters()).toMatchObject({ executions: 1, sharedHits: 1, cacheHits: 1 });
  });

  it('drops a queued query superseded by a newer one with the same key', async () => {
    const { worker, scheduler } = setup();
    const first = scheduler.query({ sql: 'SELECT busy' });
    const stale = scheduler.query({ sql: 'SELECT old', supersedeKey: 'widget-1' });
    const fresh = scheduler.query({ sql: 'SELECT new', supersedeKey: 'widget-1' });
    await expect(stale).rejects.toMatchObject({ name: 'AbortError' });
    await worker.answerNext();
    await worker.answerNext();
    await Promise.all([first, fresh]);
    expect(worker.sql).toEqual(['SELECT busy', 'SELECT new']);
  });

  describe('queries that one statement answers (their metrics over the same rows)', () => {
    /** A query of group `group` over `metrics`, whose statement lists the metrics it is asked for. */
    const merged = (metrics: string[], group = 'g'): MetricsMerge => ({
      group,
      metrics,
      columns: ['day', ...metrics],
      sqlWith: (all) => `SELECT day, ${all.join(', ')}`,
    });
    const ask = (scheduler: ReturnType<typeof setup>['scheduler'], metrics: string[], signal?: AbortSignal) =>
      scheduler.query({ sql: `SELECT day, ${metrics.join(', ')}`, merge: merged(metrics), signal });
    const columnsOf = (bytes: Uint8Array) => {
      const table = tableFromIPC(bytes);
      return Object.fromEntries(
        table.schema.fields.map((f) => [f.name, Array.from(table.getChild(f.name)!.toArray())]),
      );
    };

    it('runs the waiting ones of a group as one statement, whose answer answers each', async () => {
      const { worker, scheduler } = setup();
      const busy = scheduler.query({ sql: 'SELECT busy' });
      const answers = Promise.all([
        ask(scheduler, ['sent', 'opens']),
        ask(scheduler, ['clicks', 'sent']),
        scheduler.query({ sql: 'SELECT day, sent WHERE x', merge: merged(['sent'], 'other') }),
      ]);
      await worker.answerNext();
      // The other group's query runs on its own (sent to the worker behind the shared statement).
      expect(worker.sql.slice(1)).toEqual(['SELECT day, sent, opens, clicks', 'SELECT day, sent WHERE x']);
      const shared = tableToIPC(
        tableFromArrays({ day: ['d1', 'd2'], sent: [10, 20], opens: [3, 4], clicks: [1, 2] }),
        'stream',
      );
      await worker.answerNext(shared);
      await worker.answerNext(tableToIPC(tableFromArrays({ day: ['d1'], sent: [5] }), 'stream'));
      const [first, second, other] = await Promise.all([busy, answers]).then(([, all]) => all);
      // Each holds its own columns (and the other's, which its reader leaves aside: src/store/engineApi.ts).
      for (const each of [first, second]) {
        expect(columnsOf(each)).toEqual({ day: ['d1', 'd2'], sent: [10, 20], opens: [3, 4], clicks: [1, 2] });
      }
      expect(columnsOf(other)).toEqual({ day: ['d1'], sent: [5] });
    });

    it('runs on while any of its queries is still wanted, and is stopped when none is', async () => {
      const { worker, scheduler } = setup();
      const busy = scheduler.query({ sql: 'SELECT busy' });
      const [first, second] = [new AbortController(), new AbortController()];
      const answers = [ask(scheduler, ['sent'], first.signal), ask(scheduler, ['opens'], second.signal)];
      await worker.answerNext();
      await busy;
      expect(worker.sql[1]).toBe('SELECT day, sent, opens');
      first.abort();
      await expect(answers[0]).rejects.toMatchObject({ name: 'AbortError' });
      expect(worker.cancelled).toEqual([]);
      second.abort();
      await expect(answers[1]).rejects.toMatchObject({ name: 'AbortError' });
      expect(worker.cancelled).toEqual(['q2']);
    });

    it('runs each on its own when their shared statement fails, so one failing metric fails only its query', async () => {
      const { worker, scheduler } = setup();
      const busy = scheduler.query({ sql: 'SELECT busy' });
      const good = ask(scheduler, ['sent']);
      const bad = ask(scheduler, ['broken']).catch((error: unknown) => error);
      await worker.answerNext();
      await busy;
      expect(worker.sql[1]).toBe('SELECT day, sent, broken');
      await worker.failNext({ name: 'Error', message: 'Conversion Error' });
      expect(worker.sql.slice(2)).toEqual(['SELECT day, sent', 'SELECT day, broken']);
      await worker.answerNext(tableToIPC(tableFromArrays({ day: ['d1'], sent: [5] }), 'stream'));
      await worker.failNext({ name: 'Error', message: 'Conversion Error' });
      expect(columnsOf(await good)).toEqual({ day: ['d1'], sent: [5] });
      expect(await bad).toMatchObject({ message: 'Conversion Error' });
    });
  });
});
