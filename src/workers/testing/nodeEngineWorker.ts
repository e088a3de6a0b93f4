import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter';
import { openNodeDuckdbInstance } from '../../engine/testing/nodeDuckdb';
import { createEngineCore } from '../engineCore';

/** A worker thread running the same engine core as the browser worker, over the Node DuckDB-WASM bundle. */
async function open() {
  const { conn, db } = await openNodeDuckdbInstance();
  const module = (db as unknown as { mod: { HEAPU8: Uint8Array } }).mod;
  return { conn, version: db.getVersion(), heapBytes: () => module.HEAPU8.buffer.byteLength };
}

if (!parentPort) throw new Error('Run as a worker thread');
expose(createEngineCore(open), nodeEndpoint(parentPort));
