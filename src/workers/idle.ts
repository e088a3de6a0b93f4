/**
 * Resolves when the page's main thread is idle, or after `timeoutMs` at the latest; at once where there is no idle
 * callback (workers, Node). For work that may wait until what the user sees is drawn.
 */
export function whenIdle(timeoutMs: number): Promise<void> {
  if (typeof requestIdleCallback !== 'function') return Promise.resolve();
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: timeoutMs }));
}
