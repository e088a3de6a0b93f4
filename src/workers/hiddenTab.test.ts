import { SHED_HIDDEN_MS, SHED_RETRY_MS, watchHiddenTab } from './hiddenTab';

/** A document whose visibility the test sets, as the browser does when the user switches tabs. */
function tab() {
  const doc = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState };
  doc.visibilityState = 'visible';
  const show = (state: DocumentVisibilityState) => {
    doc.visibilityState = state;
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { doc, show };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** An engine as the watcher sees it: workers to end, or none. */
function engine() {
  let workers = true;
  const shed = jest.fn(() => {
    const had = workers;
    workers = false;
    return had;
  });
  return { shed, restart: () => (workers = true) };
}

test('a tab hidden for five minutes sheds its engine, and starts it again when back in view', () => {
  const { doc, show } = tab();
  const { shed } = engine();
  const resume = jest.fn();
  const stop = watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS - 1);
  expect(shed).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(shed).toHaveReturnedWith(true);
  expect(resume).not.toHaveBeenCalled();
  show('visible');
  expect(resume).toHaveBeenCalledTimes(1);
  // In view, nothing is shed however long.
  const calls = shed.mock.calls.length;
  jest.advanceTimersByTime(10 * SHED_HIDDEN_MS);
  expect(shed).toHaveBeenCalledTimes(calls);
  stop();
});

test('an engine started again while the tab stays hidden ends within a minute of its work', () => {
  const { doc, show } = tab();
  const { shed, restart } = engine();
  const resume = jest.fn();
  watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(shed.mock.results.map((result) => result.value)).toEqual([true]);
  // The report's polling saw a change: its widgets asked, and a worker started.
  restart();
  jest.advanceTimersByTime(SHED_RETRY_MS);
  expect(shed.mock.results.map((result) => result.value)).toEqual([true, true]);
  jest.advanceTimersByTime(SHED_RETRY_MS);
  expect(shed.mock.results.map((result) => result.value)).toEqual([true, true, false]);
  show('visible');
  expect(resume).toHaveBeenCalledTimes(1);
});

test('a glance away shorter than that costs nothing: no shed, no restart', () => {
  const { doc, show } = tab();
  const shed = jest.fn(() => true);
  const resume = jest.fn();
  watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS / 2);
  show('visible');
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(shed).not.toHaveBeenCalled();
  expect(resume).not.toHaveBeenCalled();
  // The next time away counts from its own start.
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS - 1);
  expect(shed).not.toHaveBeenCalled();
});

test('an engine busy when the time comes is tried again a minute later; nothing starts again if it never shed', () => {
  const { doc, show } = tab();
  const answers = [false, true];
  const shed = jest.fn(() => answers.shift() ?? true);
  const resume = jest.fn();
  watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(shed).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(SHED_RETRY_MS);
  expect(shed).toHaveBeenCalledTimes(2);
  show('visible');
  expect(resume).toHaveBeenCalledTimes(1);

  const busy = tab();
  const neverShed = jest.fn(() => false);
  const neverResumed = jest.fn();
  watchHiddenTab({ doc: busy.doc, shed: neverShed, resume: neverResumed });
  busy.show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS + SHED_RETRY_MS);
  busy.show('visible');
  expect(neverShed).toHaveBeenCalledTimes(2);
  expect(neverResumed).not.toHaveBeenCalled();
});

test('a tab opened in the background counts from the start; a stopped watch sheds nothing', () => {
  const { doc, show } = tab();
  doc.visibilityState = 'hidden';
  const shed = jest.fn(() => true);
  const resume = jest.fn();
  const stop = watchHiddenTab({ doc, shed, resume });
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(shed).toHaveBeenCalledTimes(1);

  const other = tab();
  const otherShed = jest.fn(() => true);
  watchHiddenTab({ doc: other.doc, shed: otherShed, resume: jest.fn() })();
  other.show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(otherShed).not.toHaveBeenCalled();
  stop();
  show('visible');
  expect(resume).not.toHaveBeenCalled();
});
