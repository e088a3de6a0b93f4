import { cancelDraw, queueDraw } from './drawQueue';

/** What ran, in order: charts' draws and other tasks of the page. */
let ran: string[] = [];

beforeEach(() => {
  ran = [];
  jest.useFakeTimers();
});

afterEach(() => {
  jest.runOnlyPendingTimers();
  jest.useRealTimers();
});

/** Runs the page's next task. */
const nextTask = () => jest.advanceTimersToNextTimer();

test('charts asking together are drawn one per task, in the order they asked', () => {
  const [a, b, c] = [{}, {}, {}];
  queueDraw(a, () => ran.push('a'));
  queueDraw(b, () => ran.push('b'));
  queueDraw(c, () => ran.push('c'));
  expect(ran).toEqual([]);
  nextTask();
  expect(ran).toEqual(['a']);
  nextTask();
  expect(ran).toEqual(['a', 'b']);
  nextTask();
  expect(ran).toEqual(['a', 'b', 'c']);
});

test("what arrives while a chart is drawn (an engine worker's answer) is taken before the next chart", () => {
  const [a, b] = [{}, {}];
  queueDraw(a, () => {
    ran.push('a');
    setTimeout(() => ran.push('answer'), 0);
  });
  queueDraw(b, () => ran.push('b'));
  jest.runAllTimers();
  expect(ran).toEqual(['a', 'answer', 'b']);
});

test('a chart asking again keeps its place and draws only its newest figure; an unmounted one is not drawn', () => {
  const [a, b, c] = [{}, {}, {}];
  queueDraw(a, () => ran.push('a1'));
  queueDraw(b, () => ran.push('b'));
  queueDraw(c, () => ran.push('c'));
  queueDraw(a, () => ran.push('a2'));
  cancelDraw(b);
  jest.runAllTimers();
  expect(ran).toEqual(['a2', 'c']);
});

test('a draw that throws does not stop the charts after it', () => {
  const [a, b] = [{}, {}];
  queueDraw(a, () => {
    throw new Error('plotly failed');
  });
  queueDraw(b, () => ran.push('b'));
  expect(() => nextTask()).toThrow('plotly failed');
  nextTask();
  expect(ran).toEqual(['b']);
});
