import { SHED_HIDDEN_MS, watchHiddenTab } from './hiddenTab';

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

test('a tab hidden for five minutes sheds its engine once, and starts it again when back in view', () => {
  const { doc, show } = tab();
  const shed = jest.fn(() => true);
  const resume = jest.fn();
  const stop = watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS - 1);
  expect(shed).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(shed).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(10 * SHED_HIDDEN_MS);
  expect(shed).toHaveBeenCalledTimes(1);
  expect(resume).not.toHaveBeenCalled();
  show('visible');
  expect(resume).toHaveBeenCalledTimes(1);
  stop();
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

test('an engine busy when the time comes is tried again a minute later; nothing restarts if it never shed', () => {
  const { doc, show } = tab();
  const answers = [false, true];
  const shed = jest.fn(() => answers.shift() ?? true);
  const resume = jest.fn();
  watchHiddenTab({ doc, shed, resume });
  show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS);
  expect(shed).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(60_000);
  expect(shed).toHaveBeenCalledTimes(2);
  show('visible');
  expect(resume).toHaveBeenCalledTimes(1);

  const busy = tab();
  const neverShed = jest.fn(() => false);
  const neverResumed = jest.fn();
  watchHiddenTab({ doc: busy.doc, shed: neverShed, resume: neverResumed });
  busy.show('hidden');
  jest.advanceTimersByTime(SHED_HIDDEN_MS + 60_000);
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
