import { type EngineWorkerApi } from './protocol';
import { type Slot, type WorkerHandle, createWorkerSlots } from './workerSlots';

/** A worker that never answers (its DuckDB never opens): the slots only start, watch and stop it. */
function fakeWorker() {
  const worker = { terminated: 0, exit: (_reason: string) => undefined as void };
  const handle: WorkerHandle = {
    api: { version: () => new Promise<never>(() => undefined) } as unknown as EngineWorkerApi,
    terminate: () => {
      worker.terminated += 1;
    },
    onExit: (listener) => {
      worker.exit = listener;
    },
  };
  return { worker, handle };
}

describe('the worker slots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup(hangMs = 1_000) {
    const workers: ReturnType<typeof fakeWorker>['worker'][] = [];
    const deaths: [Slot<unknown>, string][] = [];
    const slots = createWorkerSlots<string>({
      spawn: () => {
        const { worker, handle } = fakeWorker();
        workers.push(worker);
        return handle;
      },
      hangMs,
      onDeath: (slot, reason) => deaths.push([slot, reason]),
    });
    return { slots, workers, deaths };
  }

  it('starts workers on demand and reports one that exits on its own', () => {
    const { slots, workers, deaths } = setup();
    const first = slots.spawn();
    slots.spawn();
    expect(slots.all).toHaveLength(2);
    workers[0].exit('out of memory');
    expect(deaths).toEqual([[first, 'out of memory']]);
  });

  it('takes a worker busy for longer than the hang limit for hung; a released one is not', () => {
    const { slots, deaths } = setup(1_000);
    const slot = slots.spawn();
    slots.occupy(slot, 'SELECT 1');
    expect([slot.busy, slot.current]).toEqual([true, 'SELECT 1']);
    jest.advanceTimersByTime(999);
    // Taking the next task restarts the watch.
    slots.occupy(slot, 'SELECT 2');
    jest.advanceTimersByTime(999);
    expect(deaths).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(deaths).toEqual([[slot, 'no answer']]);
    const other = slots.spawn();
    slots.occupy(other, 'SELECT 3');
    slots.release(other);
    jest.advanceTimersByTime(5_000);
    expect(deaths).toHaveLength(1);
    expect([other.busy, other.current]).toEqual([false, undefined]);
  });

  it('makes the task sent behind the current one current when that one ends, watched from then on', () => {
    const { slots, deaths } = setup(1_000);
    const slot = slots.spawn();
    slots.occupy(slot, 'SELECT 1');
    slots.queueNext(slot, 'SELECT 2');
    jest.advanceTimersByTime(900);
    expect(slots.release(slot)).toBe('SELECT 2');
    expect([slot.busy, slot.current, slot.ahead]).toEqual([true, 'SELECT 2', []]);
    jest.advanceTimersByTime(999);
    expect(deaths).toEqual([]);
    expect(slots.release(slot)).toBeUndefined();
    expect([slot.busy, slot.current]).toEqual([false, undefined]);
  });

  it('retires a worker: stopped, forgotten and counted, handing back the task it ran and the one behind it', () => {
    const { slots, workers } = setup();
    const slot = slots.spawn();
    const kept = slots.spawn();
    slots.occupy(slot, 'SELECT 1');
    slots.queueNext(slot, 'SELECT 2');
    expect(slots.retire(slot)).toEqual(['SELECT 1', 'SELECT 2']);
    expect([slot.dead, workers[0].terminated, slots.all, slots.replaced()]).toEqual([true, 1, [kept], 1]);
  });

  it('stops every worker at once', () => {
    const { slots, workers } = setup();
    slots.spawn();
    slots.spawn();
    slots.terminateAll();
    expect(slots.all).toEqual([]);
    expect(workers.map((worker) => worker.terminated)).toEqual([1, 1]);
  });
});
