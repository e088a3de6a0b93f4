import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { openLockedDuckDB, withTimeout } from './duckdb';

let dir: string;
let instance: DuckDBInstance | undefined;
let connection: DuckDBConnection | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-duckdb-'));
  ({ instance, connection } = await openLockedDuckDB([dir]));
}, START_TIMEOUT_MS);

afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the server DuckDB', () => {
  it('reads and writes its own directory', async () => {
    const file = path.join(dir, 'a.parquet');
    await connection!.run(`COPY (SELECT 42 AS answer) TO '${file}' (FORMAT parquet)`);
    const rows = (await connection!.runAndReadAll(`SELECT answer FROM read_parquet('${file}')`)).getRowObjectsJS();
    expect(rows).toEqual([{ answer: 42 }]);
  });

  it('reaches no other file, no URL and no extension, and cannot be unlocked', async () => {
    const refused = [
      `SELECT * FROM read_csv('/etc/passwd')`,
      `SELECT * FROM read_csv('${dir}/../../etc/passwd')`,
      `SELECT * FROM read_parquet('https://example.com/a.parquet')`,
      `COPY (SELECT 1) TO '${os.tmpdir()}/outside.csv'`,
      'INSTALL httpfs',
      'LOAD httpfs',
      'SET enable_external_access = true',
      "SET allowed_directories = ['/']",
      "SET memory_limit = '64GB'",
    ];
    for (const sql of refused) {
      await expect(connection!.run(sql)).rejects.toThrow(/Permission|disabled|Cannot change|locked|not allowed/i);
    }
    expect(fs.existsSync(path.join(os.tmpdir(), 'outside.csv'))).toBe(false);
  });

  it('interrupts a query that runs too long', async () => {
    await expect(
      withTimeout(connection!, 200, () => connection!.run('SELECT count(*) FROM range(100000000000)')),
    ).rejects.toThrow('A DuckDB query took longer than 200 ms and was interrupted');
  });
});
