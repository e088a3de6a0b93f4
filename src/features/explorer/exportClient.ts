import { type Remote, releaseProxy, wrap } from 'comlink';
import { type ExportWorkerApi } from './exportWorkerApi';

export interface ExportWorker {
  /** The worker's API; every call also fails when the worker itself fails (it would otherwise never answer). */
  call<T>(run: (api: Remote<ExportWorkerApi>) => Promise<T>): Promise<T>;
  terminate(): void;
}

/** A worker for one export, in its own chunk with exceljs and Arrow's reader: none of them is in the first load. */
export function startExportWorker(): ExportWorker {
  const worker = new Worker(new URL('./export.worker.ts', import.meta.url), { name: 'export' });
  const api = wrap<ExportWorkerApi>(worker);
  const failed = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) => reject(new Error(event.message || 'The export worker failed'))),
  );
  failed.catch(() => undefined);
  return {
    call: (run) => Promise.race([run(api), failed]),
    terminate: () => {
      api[releaseProxy]();
      worker.terminate();
    },
  };
}
