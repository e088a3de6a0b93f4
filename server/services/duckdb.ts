import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

const MEMORY_LIMIT = '512MB';

/** A DuckDB string literal. */
export const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * An in-memory DuckDB for the server's own queries that reaches only `directories` (it spills into the first):
 * no extension is installed or loaded on demand, no other file or URL is readable, memory is bounded, and the
 * settings are locked so a query cannot undo any of it. Connections opened later share these settings.
 */
export async function openLockedDuckDB(
  directories: string[],
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const spill = path.join(path.resolve(directories[0]), '.spill');
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '1',
    memory_limit: MEMORY_LIMIT,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    temp_directory: spill,
  });
  const connection = await instance.connect();
  try {
    const allowed = directories.map((dir) => literal(`${path.resolve(dir)}${path.sep}`));
    await connection.run(`SET allowed_directories = [${allowed.join(', ')}]`);
    await connection.run('SET enable_external_access = false');
    await connection.run('SET lock_configuration = true');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return { instance, connection };
}

/** Runs `work`, interrupting the connection's statement when it takes longer than `ms`. */
export async function withTimeout<T>(connection: DuckDBConnection, ms: number, work: () => Promise<T>): Promise<T> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, ms);
  try {
    return await work();
  } catch (error) {
    throw timedOut ? new Error(`A DuckDB query took longer than ${ms} ms and was interrupted`) : error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One locked-down instance per service and server process, opened on first use; each query gets its own connection
 * with a timeout, closed afterwards.
 */
export class LazyLockedDuckDB {
  private instance: Promise<DuckDBInstance> | undefined;

  constructor(private readonly directories: string[]) {}

  /** Runs `work` on a fresh connection, interrupted after `timeoutMs`. */
  async query<T>(timeoutMs: number, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    this.instance ??= openLockedDuckDB(this.directories).then(({ instance, connection }) => {
      connection.closeSync();
      return instance;
    });
    const connection = await (await this.instance).connect();
    try {
      return await withTimeout(connection, timeoutMs, () => work(connection));
    } finally {
      connection.closeSync();
    }
  }

  async close(): Promise<void> {
    const instance = this.instance;
    this.instance = undefined;
    if (instance) (await instance).closeSync();
  }
}
