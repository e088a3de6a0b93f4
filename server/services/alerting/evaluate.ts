import { ALERT_HISTORY_DAYS, type AlertResult } from '../../../src/contracts/alerting';
import type { DatasetSchema } from '../../../src/contracts/datasets';
import { type AlertRuleQuery, alertEvaluationSql, alertResultsFromRows, daysEnding } from '../../../src/engine/alerts';
import { addDays } from '../../../src/engine/dates';
import { ident } from '../../../src/engine/sql';
import { todayUtc } from '../../datasets/generate';
import { datasetFile } from '../datasets';
import type { Executor } from '../db';
import { LazyLockedDuckDB, literal } from '../duckdb';
import { workspaceDatasetSchema } from './rules';

/** One evaluation (a rule over its days) answers within this time or fails, never holding a job or request. */
export const EVALUATION_TIMEOUT_MS = 20_000;

/** The last complete day: evaluations and history end the day before today (UTC). */
export const lastCompleteDay = (now = new Date()): string => addDays(now.toISOString().slice(0, 10), -1);

/** The days of a rule's history and preview: the ALERT_HISTORY_DAYS days ending with the last complete day. */
export const historyDays = (): string[] => daysEnding(addDays(todayUtc(), -1), ALERT_HISTORY_DAYS);

export interface EvaluatedRule extends AlertRuleQuery {
  dataset: string;
}

/**
 * Evaluates rules with the engine's SQL on the server's locked-down DuckDB (services/duckdb: no extensions, no
 * network, only the data directory, bounded memory), one connection per evaluation with a timeout. The dataset's
 * Parquet file is exposed under the schema's table name as a view on that connection only.
 */
export class AlertEvaluator {
  private readonly duckdb: LazyLockedDuckDB;

  constructor(
    private readonly db: Executor,
    private readonly dataDir: string,
  ) {
    this.duckdb = new LazyLockedDuckDB([dataDir]);
  }

  /** The rule's result for each day, oldest first. */
  async evaluate(workspaceId: number, rule: EvaluatedRule, days: string[]): Promise<AlertResult[]> {
    const schema = await workspaceDatasetSchema(this.db, workspaceId, rule.dataset);
    if (!schema) return alertResultsFromRows(rule, days, []);
    const file = await datasetFile(this.dataDir, workspaceId, rule.dataset);
    return this.evaluateFile(schema, file.parquetPath, rule, days);
  }

  /** The same over a known schema and Parquet file (the benchmark calls it directly). */
  async evaluateFile(
    schema: DatasetSchema,
    parquetPath: string,
    rule: AlertRuleQuery,
    days: string[],
  ): Promise<AlertResult[]> {
    const rows = await this.runOnFile(schema, parquetPath, alertEvaluationSql(schema, rule, days));
    return alertResultsFromRows(rule, days, rows);
  }

  /** Rows of engine SQL over a workspace's dataset (the weekly summary's figures); none when it is unavailable. */
  async runOnDataset(
    workspaceId: number,
    datasetId: string,
    build: (schema: DatasetSchema) => string,
  ): Promise<Record<string, unknown>[]> {
    const schema = await workspaceDatasetSchema(this.db, workspaceId, datasetId);
    if (!schema) return [];
    const file = await datasetFile(this.dataDir, workspaceId, datasetId);
    return this.runOnFile(schema, file.parquetPath, build(schema));
  }

  private async runOnFile(schema: DatasetSchema, parquetPath: string, sql: string) {
    return this.duckdb.query(EVALUATION_TIMEOUT_MS, async (connection) => {
      // The path is the server's own (data directory, workspace id, catalogue id), escaped as a literal.
      await connection.run(
        `CREATE OR REPLACE TEMP VIEW ${ident(schema.tableId)} AS SELECT * FROM read_parquet(${literal(parquetPath)})`,
      );
      return (await connection.runAndReadAll(sql)).getRowObjectsJS();
    });
  }

  async close(): Promise<void> {
    await this.duckdb.close();
  }
}
