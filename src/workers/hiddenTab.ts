/** How long a tab stays hidden before its engine's workers end (`watchHiddenTab`). */
export const SHED_HIDDEN_MS = 5 * 60_000;
/**
 * How often a tab still hidden then looks again: an engine busy at the time, or started since (the report's polling
 * saw a change, a new dataset came), ends once idle.
 */
export const SHED_RETRY_MS = 60_000;

export interface HiddenTabOptions {
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  /** Ends the engine's workers if there are any and nothing runs; answers whether it did. */
  shed(): boolean;
  /** The tab is in view again after a shed: the engine starts again, ready for the user's next change. */
  resume(): void;
}

/**
 * A marketer keeps dozens of report tabs open, most of them out of sight: a tab hidden for `SHED_HIDDEN_MS` ends its
 * DuckDB workers and lets go of DuckDB's compiled module and of the datasets' files its browser keeps (read again for
 * the next worker, pool.ts), and keeps what it shows (the answers). In view again, it starts the engine at the page's
 * next idle moment, as a reload of kept answers does, so that the next change finds it ready. A settled demo tab held
 * 90 MiB (30 %) less while hidden (bench/README.md). Returns a function that stops watching.
 */
export function watchHiddenTab({ doc, shed, resume }: HiddenTabOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shedWhileHidden = false;
  const hidden = () => doc.visibilityState === 'hidden';
  const tryShed = () => {
    timer = undefined;
    if (!hidden()) return;
    if (shed()) shedWhileHidden = true;
    timer = setTimeout(tryShed, SHED_RETRY_MS);
  };
  const changed = () => {
    clearTimeout(timer);
    timer = undefined;
    if (hidden()) timer = setTimeout(tryShed, SHED_HIDDEN_MS);
    else if (shedWhileHidden) {
      shedWhileHidden = false;
      resume();
    }
  };
  doc.addEventListener('visibilitychange', changed);
  if (hidden()) timer = setTimeout(tryShed, SHED_HIDDEN_MS);
  return () => {
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', changed);
  };
}
