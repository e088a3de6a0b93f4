import { act, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { changeTone, formatChange, formatValue, relativeChange } from '../../../engine/format';
import {
  COMPARE,
  MAIN,
  fixtureWidget,
  storeWithDataset,
  widgetContext,
  widgetSchema,
  withWidgetEngine,
} from '../testing/widgetEngine';
import { WidgetBody } from '../WidgetBody';

jest.setTimeout(60_000);

const sql = withWidgetEngine();

const byCountry = (range: { start: string; end: string }) =>
  new Map(
    sql(
      `SELECT country, CAST(SUM(sent) AS DOUBLE) AS sent, SUM(open) / SUM(delivered) AS open_rate FROM campaigns_fixture
       WHERE send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}' GROUP BY country`,
    ).map((row) => [row.country as string, row]),
  );

test('rows per country with the current value, the comparison and the change, in the workspace locale', async () => {
  const widget = fixtureWidget({ type: 'table', dimensions: ['country'], metrics: ['sent', 'open_rate'] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext({ locale: 'nl_NL' })} />, {
    store: storeWithDataset(),
  });
  const table = await screen.findByRole('table');
  const main = byCountry(MAIN);
  const before = byCountry(COMPARE);
  const bodyRows = within(table).getAllByRole('row').slice(1);
  expect(bodyRows).toHaveLength(main.size);
  const sentField = widgetSchema.fields.find((f) => f.id === 'sent');
  for (const row of bodyRows) {
    const cells = within(row).getAllByRole('cell');
    const code = [...main.keys()].find((c) => formatValue(c, 'country', 'nl_NL') === cells[0].textContent)!;
    expect(code).toBeDefined();
    const now = main.get(code)!;
    const prev = before.get(code)!;
    const sentChange = relativeChange(now.sent, prev.sent);
    expect(cells[1].textContent).toBe(
      formatValue(now.sent, 'number', 'nl_NL') +
        formatValue(prev.sent, 'number', 'nl_NL') +
        formatChange(sentChange, 'nl_NL'),
    );
    expect(within(cells[1]).getByText(formatChange(sentChange, 'nl_NL')).className).toContain(
      `or-change-${changeTone(sentChange, sentField)}`,
    );
    const rateChange = relativeChange(now.open_rate, prev.open_rate);
    expect(cells[2].textContent).toBe(
      formatValue(now.open_rate, 'percent', 'nl_NL') +
        formatValue(prev.open_rate, 'percent', 'nl_NL') +
        formatChange(rateChange, 'nl_NL'),
    );
  }
  // Ordered by the first metric, largest first.
  const shown = bodyRows.map((row) => within(row).getAllByRole('cell')[0].textContent);
  const expectedOrder = [...main.entries()]
    .sort((a, b) => (b[1].sent as number) - (a[1].sent as number))
    .map(([code]) => formatValue(code, 'country', 'nl_NL'));
  expect(shown).toEqual(expectedOrder);
});

test('global filters apply on top of the widget', async () => {
  const widget = fixtureWidget({ type: 'table', dimensions: ['country'], metrics: ['sent'] });
  const context = widgetContext({ filters: [{ member: 'country', operator: 'equals', values: ['NL'] }] });
  renderWithProviders(<WidgetBody widget={widget} context={context} />, { store: storeWithDataset() });
  const table = await screen.findByRole('table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(1);
  const [expected] = sql(
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture WHERE country = 'NL' AND send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'`,
  );
  expect(within(rows[0]).getAllByRole('cell')[1].textContent).toContain(formatValue(expected.sent, 'number', 'en_US'));
});

test('nothing selected', async () => {
  const widget = fixtureWidget({ type: 'table', dimensions: [], metrics: [] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText('Select at least 1 dimension or metric.')).toBeTruthy();
});

test('a date change never shows the previous range’s numbers', async () => {
  const widget = fixtureWidget({ type: 'table', dimensions: [], metrics: ['sent'] });
  const total = (range: { start: string; end: string }) =>
    formatValue(
      sql(
        `SELECT CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture WHERE send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}'`,
      )[0].sent,
      'number',
      'en_US',
    );
  const march = { start: '2024-03-01', end: '2024-03-31' };
  let setRange: (range: { start: string; end: string }) => void = () => undefined;
  function Dashboard() {
    const [range, set] = useState(MAIN);
    setRange = set;
    return <WidgetBody widget={widget} context={widgetContext({ ranges: { main: { ...range, preset: 'custom' } } })} />;
  }
  renderWithProviders(<Dashboard />, { store: storeWithDataset() });
  expect(await screen.findByText(total(MAIN))).toBeTruthy();
  act(() => setRange(march));
  expect(screen.queryByText(total(MAIN))).toBeNull();
  expect(await screen.findByText(total(march))).toBeTruthy();
  act(() => setRange(MAIN));
  // Back to a range already answered: straight from the cache.
  expect(screen.getByText(total(MAIN))).toBeTruthy();
});

test('the same widget on the canvas and in the configure preview: neither cancels the other', async () => {
  const saved = fixtureWidget({ type: 'table', dimensions: [], metrics: ['sent'] });
  const draft = { ...saved, metrics: ['open'] };
  renderWithProviders(
    <>
      <WidgetBody widget={saved} context={widgetContext()} />
      <WidgetBody widget={draft} context={widgetContext()} />
    </>,
    { store: storeWithDataset() },
  );
  const [expected] = sql(
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent, CAST(SUM(open) AS DOUBLE) AS open FROM campaigns_fixture
     WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'`,
  );
  expect(await screen.findByText(formatValue(expected.sent, 'number', 'en_US'))).toBeTruthy();
  expect(await screen.findByText(formatValue(expected.open, 'number', 'en_US'))).toBeTruthy();
});
