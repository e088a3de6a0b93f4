/**
 * Charts draw one per task of the page's event loop, in the order they asked.
 *
 * Widgets whose numbers arrive together commit together, and plotly draws every chart of a commit in the same task:
 * at a cold open the page's thread drew three charts in one go while an engine worker's answer, ended half a second
 * before, waited for it (bench/README.md). Drawn one per task, an answer that arrives meanwhile is taken between
 * two charts, and the next widget's numbers show sooner.
 */

type Draw = () => void;

interface TaskScheduler {
  postTask(
    callback: () => void,
    options?: { priority?: 'user-blocking' | 'user-visible' | 'background' },
  ): Promise<unknown>;
}

/** Pending draws by chart, in the order they were first asked for; a chart asking again keeps its place. */
const pending = new Map<object, Draw>();
let scheduled = false;

/**
 * Runs `callback` in a task of its own, queued behind what is already queued (an engine worker's message that
 * arrived during the last draw goes first): Chromium's `scheduler.postTask`, else a timer.
 */
function inNextTask(callback: () => void): void {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    void scheduler.postTask(callback, { priority: 'user-visible' });
  } else {
    setTimeout(callback, 0);
  }
}

function drawNext(): void {
  scheduled = false;
  const next = pending.entries().next();
  if (next.done) return;
  const [chart, draw] = next.value;
  pending.delete(chart);
  try {
    draw();
  } finally {
    // Queued after the draw, behind whatever arrived during it.
    if (pending.size > 0) schedule();
  }
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  inNextTask(drawNext);
}

/** Asks for `chart` to be drawn by `draw` in a task of its own; replaces the chart's draw still pending. */
export function queueDraw(chart: object, draw: Draw): void {
  pending.set(chart, draw);
  schedule();
}

/** Forgets the chart's pending draw (it unmounted). */
export function cancelDraw(chart: object): void {
  pending.delete(chart);
}
