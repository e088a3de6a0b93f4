import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter';
import { openNodeDuckdbInstance } from '../../engine/testing/nodeDuckdb';
import { createEngineCore, openedDuckdb } from '../engineCore';

/** A worker thread running the same engine core as the browser worker, over the Node DuckDB-WASM bundle. */
async function open() {
  const { conn, db } = await openNodeDuckdbInstance();
  return openedDuckdb(db, conn);
}

if (!parentPort) throw new Error('Run as a worker thread');
expose(createEngineCore(open), nodeEndpoint(parentPort));
