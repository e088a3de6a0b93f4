import { type EngineWorkerApi } from './protocol';

/** One worker as the pool sees it: its API, a way to stop it, and word when it dies on its own. */
export interface WorkerHandle {
  api: EngineWorkerApi;
  terminate(): void;
  onExit(listener: (reason: string) => void): void;
}

/** A worker and what it holds: the dataset versions loaded (or loading) in it and the task it runs. */
export interface Slot<T> {
  handle: WorkerHandle;
  tables: Map<string, string>;
  busy: boolean;
  current?: T;
  /**
   * Queries sent while `current` runs, which the worker starts one after another as soon as it ends: the worker does
   * not wait for the page's thread (drawing a widget) to take an answer and send the next.
   */
  ahead: T[];
  timer?: ReturnType<typeof setTimeout>;
  dead: boolean;
  /** DuckDB's start in the worker has settled (opened, or failed): until then a task given to it waits. */
  opened: boolean;
  /** When it was started and when its start settled, on the slots' clock. */
  spawnedAt: number;
  openedAt?: number;
}

export interface WorkerSlotsOptions {
  spawn: () => WorkerHandle;
  /** A task running longer than this is taken for a hung worker. */
  hangMs: number;
  /** A worker exited on its own or hung: the scheduler retires it and decides about its task. */
  onDeath(slot: Slot<unknown>, reason: string): void;
  /** A worker's DuckDB has opened (or failed to): tasks kept for an opened worker may go now. */
  onOpened?(slot: Slot<unknown>): void;
  /** The clock of `spawnedAt` and `openedAt` (milliseconds); `performance.now` unless a test gives its own. */
  now?: () => number;
}

export interface WorkerSlots<T> {
  /** The live workers, in the order they started. */
  readonly all: Slot<T>[];
  spawn(): Slot<T>;
  /** The worker takes the task: busy, with its hang timer (re)started. */
  occupy(slot: Slot<T>, task: T): void;
  /** The busy worker takes the task to run after its current one and those already ahead (`Slot.ahead`). */
  queueNext(slot: Slot<T>, task: T): void;
  /** The current task ended: the first one ahead, if any, is current (and returned), else the worker is idle. */
  release(slot: Slot<T>): T | undefined;
  /** Stops and forgets a worker; returns the task it was running, then those ahead. */
  retire(slot: Slot<T>): T[];
  replaced(): number;
  terminateAll(): void;
}

/** The pool's workers: started on demand, watched for hangs and exits, stopped when gone wrong. */
export function createWorkerSlots<T>(options: WorkerSlotsOptions): WorkerSlots<T> {
  const slots: Slot<T>[] = [];
  let replaced = 0;
  const now = options.now ?? (() => performance.now());

  function occupy(slot: Slot<T>, task: T): void {
    slot.busy = true;
    slot.current = task;
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => options.onDeath(slot, 'no answer'), options.hangMs);
  }

  return {
    all: slots,
    spawn() {
      const slot: Slot<T> = {
        handle: options.spawn(),
        tables: new Map(),
        busy: false,
        ahead: [],
        dead: false,
        opened: false,
        spawnedAt: now(),
      };
      slot.handle.onExit((reason) => options.onDeath(slot, reason));
      const opened = () => {
        slot.opened = true;
        slot.openedAt = now();
        if (!slot.dead) options.onOpened?.(slot);
      };
      // Asking for the version opens DuckDB; a failure is the tasks' to meet (their calls fail the same way).
      slot.handle.api.version().then(opened, opened);
      slots.push(slot);
      return slot;
    },
    occupy,
    queueNext(slot, task) {
      slot.ahead.push(task);
    },
    release(slot) {
      clearTimeout(slot.timer);
      slot.busy = false;
      slot.current = undefined;
      const next = slot.ahead.shift();
      if (next !== undefined) occupy(slot, next);
      return next;
    },
    retire(slot) {
      slot.dead = true;
      clearTimeout(slot.timer);
      slots.splice(slots.indexOf(slot), 1);
      replaced += 1;
      try {
        slot.handle.terminate();
      } catch {
        // Already gone.
      }
      const tasks = [slot.current, ...slot.ahead].filter((task) => task !== undefined);
      slot.current = undefined;
      slot.ahead = [];
      return tasks;
    },
    replaced: () => replaced,
    terminateAll() {
      for (const slot of [...slots]) {
        slot.dead = true;
        clearTimeout(slot.timer);
        slot.handle.terminate();
      }
      slots.length = 0;
    },
  };
}
