import { Worker } from 'node:worker_threads';
import { releaseProxy, wrap } from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter';
import { type WorkerHandle } from '../pool';
import { type EngineWorkerApi } from '../protocol';

/**
 * Starts the Node test worker (TypeScript through tsx's require hook) and wraps it like the browser
 * worker, so the pool under test is the production pool. `threads` collects the raw workers, so a
 * test can kill one mid-query.
 */
export function spawnNodeWorker(threads: Worker[] = []): WorkerHandle {
  const file = require.resolve('./nodeEngineWorker.ts');
  const register = require.resolve('tsx/cjs/api');
  const worker = new Worker(`require(${JSON.stringify(register)}).register(); require(${JSON.stringify(file)});`, {
    eval: true,
  });
  threads.push(worker);
  const api = wrap<EngineWorkerApi>(nodeEndpoint(worker));
  return {
    api: api as unknown as EngineWorkerApi,
    terminate: () => {
      api[releaseProxy]();
      void worker.terminate();
    },
    onExit: (listener) => {
      worker.on('exit', (code) => listener(`exit ${code}`));
      worker.on('error', (error) => listener(error.message));
    },
  };
}
