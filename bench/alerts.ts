// npm run bench:alerts [-- --rows 1000000 --rules 1000 --previews 20]
// The daily run of `--rules` enabled rules over one day of a `--rows`-row dataset, one after another as a server
// process's job worker runs them, with the process's peak memory; then the preview call's 30-day evaluation.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AlertEvaluator } from '../server/services/alerting/evaluate';
import type { Executor } from '../server/services/db';
import type { AlertRuleValues } from '../src/contracts/alerting';
import { getCatalogueDataset, toDatasetSchema } from '../src/contracts/catalogue';
import { daysEnding, needsHistory } from '../src/engine/alerts';
import { ensureBenchData, ms } from './benchData';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    rules: { type: 'string', default: '1000' },
    previews: { type: 'string', default: '20' },
  },
});
const END_DATE = '2026-11-21';
// The largest dataset of the demo generator: about 10^6 rows at --rows 1000000.
const DATASET = 'campaign_metrics_by_event_date';

/** A deterministic mix of rules: totals and groups, every condition operator, durations 1, 7 and 30, filters. */
function rule(index: number): Pick<AlertRuleValues, 'dateField' | 'filters' | 'conditions' | 'dimension' | 'duration'> {
  const metrics = ['sent', 'open_rate', 'clicks', 'revenue', 'click_rate'];
  const operators: [string, string[]][] = [
    ['gt', ['1000']],
    ['gte', ['0.2']],
    ['lt', ['50']],
    ['lte', ['0.1']],
    ['equals', ['0']],
    ['notEquals', ['0']],
    ['inRange', ['0.1', '0.4']],
    ['outlierHigh', ['-2.0']],
    ['outlierLow', ['-1.5']],
    ['outlier', ['-3.0']],
  ];
  const [operator, values] = operators[index % operators.length];
  const dimensions = [null, 'campaign_type', 'country', 'list_name', 'campaign_name'];
  return {
    dateField: 'event_date',
    filters: index % 3 === 0 ? [{ member: 'campaign_type', operator: 'notEquals', values: ['transactional'] }] : [],
    conditions: [
      { member: metrics[index % metrics.length], operator: operator as 'gt', values },
      ...(index % 4 === 0 ? [{ member: 'sent', operator: 'gt' as const, values: ['10'] }] : []),
    ],
    dimension: dimensions[Math.floor(index / 10) % dimensions.length],
    duration: [1, 7, 30][index % 3],
  };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1];

async function main() {
  const rows = Number(args.rows);
  const dir = await ensureBenchData(rows, END_DATE);
  const schema = toDatasetSchema(getCatalogueDataset(DATASET)!);
  const parquet = path.join(dir, `${DATASET}.parquet`);
  // The schema and file are given directly, so the evaluator never asks the database.
  const evaluator = new AlertEvaluator(null as unknown as Executor, path.dirname(path.dirname(dir)));
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

  const count = Number(args.rules);
  let fired = 0;
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    const query = rule(index);
    const days = needsHistory(query) ? daysEnding(END_DATE, 30) : [END_DATE];
    const results = await evaluator.evaluateFile(schema, parquet, query, days);
    if (results[results.length - 1].result) fired += 1;
  }
  const daily = performance.now() - started;

  const previews: number[] = [];
  for (let index = 0; index < Number(args.previews); index += 1) {
    const begin = performance.now();
    await evaluator.evaluateFile(schema, parquet, rule(index * 7), daysEnding(END_DATE, 30));
    previews.push(performance.now() - begin);
  }
  clearInterval(sampler);
  await evaluator.close();

  console.log(`alerts: ${rows} rows (${DATASET}), ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
  console.log(
    `daily run: ${count} rules for ${END_DATE} in ${ms(daily)} (${fired} true), ${ms(daily / count)} per rule`,
  );
  console.log(
    `preview (30 days): p50 ${ms(percentile(previews, 50))}, p95 ${ms(percentile(previews, 95))} over ${previews.length}`,
  );
  console.log(`peak RSS: ${(peak / 2 ** 20).toFixed(0)} MiB`);
}

void main();
