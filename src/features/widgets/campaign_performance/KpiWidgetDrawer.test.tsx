import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { type DayRange } from '../../../engine/dates';
import { formatChange, formatValue, relativeChange } from '../../../engine/format';
import {
  COMPARE,
  MAIN,
  fixtureWidget,
  startWidgetEngine,
  storeWithDataset,
  widgetContext,
} from '../testing/widgetEngine';
import { KpiWidgetDrawer } from './KpiWidgetDrawer';

jest.setTimeout(60_000);

let sql: Awaited<ReturnType<typeof startWidgetEngine>>['sql'];
beforeAll(async () => {
  ({ sql } = await startWidgetEngine());
}, START_TIMEOUT_MS);

const widget = fixtureWidget({ type: 'campaign_performance', title: 'Overview', metrics: ['sent', 'open_rate'] });

/** Sent per bucket over a range, written by hand: `bucket` is an SQL expression over send_date. */
function sentBy(range: DayRange, bucket = 'send_date') {
  return new Map(
    sql(
      `SELECT strftime(${bucket}, '%Y-%m-%d') AS bucket, CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture
       WHERE send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}' GROUP BY 1 ORDER BY 1`,
    ).map((row) => [row.bucket as string, row.sent as number]),
  );
}
const totalSent = (range: DayRange) => [...sentBy(range).values()].reduce((a, b) => a + b, 0);

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Comparison' }))
    .getAllByRole('row')
    .slice(1, -1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

const expectedRow = (bucket: string, current: number, previous: number) => [
  formatValue(bucket, 'date', 'en_GB'),
  formatValue(current, 'number', 'en_GB'),
  formatValue(previous, 'number', 'en_GB'),
  formatChange(relativeChange(current, previous), 'en_GB'),
];

test('per day: the current, previous and change columns equal a hand-written query', async () => {
  renderWithProviders(
    <KpiWidgetDrawer widget={widget} context={widgetContext({ locale: 'en_GB' })} onClose={() => undefined} />,
    { store: storeWithDataset() },
  );
  await screen.findByRole('table', { name: 'Comparison' });
  expect(screen.getByText('Overview')).toBeTruthy();
  const now = sentBy(MAIN);
  const before = sentBy(COMPARE);
  const days = [...now.keys()];
  const previousDays = [...before.keys()];
  expect(days).toHaveLength(29);
  expect(bodyRows()).toEqual(days.map((day, i) => expectedRow(day, now.get(day)!, before.get(previousDays[i])!)));
  const total = within(screen.getByRole('table', { name: 'Comparison' }))
    .getAllByRole('row')
    .at(-1)!;
  await waitFor(() =>
    expect(total.textContent).toBe(
      'Total' +
        formatValue(totalSent(MAIN), 'number', 'en_GB') +
        formatValue(totalSent(COMPARE), 'number', 'en_GB') +
        formatChange(relativeChange(totalSent(MAIN), totalSent(COMPARE)), 'en_GB'),
    ),
  );
});

test('Group by week buckets both periods by week, aligned in order', async () => {
  renderWithProviders(
    <KpiWidgetDrawer widget={widget} context={widgetContext({ locale: 'en_GB' })} onClose={() => undefined} />,
    { store: storeWithDataset() },
  );
  await screen.findByRole('table', { name: 'Comparison' });
  fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'week' } });
  const monday = `send_date - CAST((dayofweek(send_date) + 6) % 7 AS INTEGER)`;
  const now = sentBy(MAIN, monday);
  const before = [...sentBy(COMPARE, monday).values()];
  await waitFor(() => expect(bodyRows()).toHaveLength(now.size));
  expect(bodyRows()).toEqual([...now.entries()].map(([week, sent], i) => expectedRow(week, sent, before[i])));
});

test('the slider narrows the range: two steps of the start handle drop the first two days', async () => {
  renderWithProviders(
    <KpiWidgetDrawer
      widget={widget}
      metric="sent"
      context={widgetContext({ locale: 'en_GB' })}
      onClose={() => undefined}
    />,
    { store: storeWithDataset() },
  );
  await screen.findByRole('table', { name: 'Comparison' });
  const start = screen.getByRole('slider', { name: 'Start date' });
  fireEvent.keyDown(start, { key: 'ArrowRight' });
  fireEvent.keyDown(start, { key: 'ArrowRight' });
  fireEvent.keyUp(start, { key: 'ArrowRight' });
  await waitFor(() => expect(bodyRows()).toHaveLength(27));
  const now = sentBy({ start: '2024-02-03', end: MAIN.end });
  const before = [...sentBy({ start: '2024-01-05', end: COMPARE.end }).values()];
  expect(bodyRows()).toEqual([...now.entries()].map(([day, sent], i) => expectedRow(day, sent, before[i])));
});

test('an unknown widget says so', () => {
  renderWithProviders(<KpiWidgetDrawer widget={undefined} context={widgetContext()} onClose={() => undefined} />, {
    store: storeWithDataset(),
  });
  expect(screen.getByText('Widget not found')).toBeTruthy();
});
