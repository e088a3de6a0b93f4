import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { formatValue } from '../../../engine/format';
import { BAR_TOP_N } from '../../../engine/queries';
import {
  MAIN,
  type WidgetEngine,
  fixtureWidget,
  startWidgetEngine,
  storeWithDataset,
  widgetContext,
} from '../testing/widgetEngine';
import { widgetMessages } from '../WidgetStates';
import { GraphWidget } from './GraphWidget';

jest.setTimeout(60_000);

let engine: WidgetEngine | undefined;

beforeAll(async () => {
  engine = await startWidgetEngine();
}, START_TIMEOUT_MS);

test('metrics over time are drawn as one chart named after the widget', async () => {
  const widget = fixtureWidget({ type: 'graph', title: 'Sends', metrics: ['sent', 'open_rate'] });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByRole('figure', { name: 'Sends' })).toBeTruthy();
});

test('a metric per dimension gets its own chart', async () => {
  const widget = fixtureWidget({
    type: 'graph',
    metricsByDimensions: [{ metric: 'sent', dimension: 'country' }],
  });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByRole('figure', { name: 'Sent by country' })).toBeTruthy();
});

test('in bar mode a metric per dimension is a bar per value, the 12 largest then Other, in the workspace locale', async () => {
  const widget = fixtureWidget({
    type: 'graph',
    visualizationSettings: { chart: { chartType: 'bar' } },
    metricsByDimensions: [{ metric: 'revenue', dimension: 'campaign_name' }],
  });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext({ locale: 'en_GB' })} />, {
    store: storeWithDataset(),
  });
  const figure = await screen.findByRole('figure', { name: /^Revenue by / });
  // Written apart from the engine: each campaign's revenue over the dashboard's range, the 12 largest by name
  // on ties, and every other campaign (the unnamed one too) as one Other bar.
  const totals = engine!.sql(
    `SELECT campaign_name AS name, SUM(revenue)::DOUBLE AS revenue FROM campaigns_fixture ` +
      `WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}' GROUP BY 1`,
  ) as { name: string | null; revenue: number }[];
  const top = totals
    .filter((row) => row.name !== null)
    .sort((a, b) => b.revenue - a.revenue || (a.name! < b.name! ? -1 : 1))
    .slice(0, BAR_TOP_N);
  const other = totals.filter((row) => !top.includes(row)).reduce((sum, row) => sum + row.revenue, 0);
  const expected = [...top.map((row) => [row.name, row.revenue] as const), ['Other', other] as const];
  const shown = within(figure)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]);
  expect(shown).toEqual(expected.map(([name, revenue]) => [name, formatValue(revenue, 'currency', 'en_GB')]));
  expect(shown[0][1]).toMatch(/^£/);
});

test('in line mode a metric per dimension stays a series over time', async () => {
  const widget = fixtureWidget({
    type: 'graph',
    visualizationSettings: { chart: { chartType: 'line' } },
    metricsByDimensions: [{ metric: 'sent', dimension: 'campaign_name' }],
  });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  const figure = await screen.findByRole('figure', { name: /^Sent by / });
  expect(within(figure).queryByRole('table')).toBeNull();
});

test('without a metric the widget asks for one', async () => {
  const widget = fixtureWidget({ type: 'graph', metrics: ['not_in_dataset'] });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText(widgetMessages.noMetric)).toBeTruthy();
  expect(screen.getByText(widgetMessages.noMetricHelp)).toBeTruthy();
});

test('a failing query shows the chart error card and reports the error', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  // An operator the filter compiler refuses: the engine rejects the query.
  const widget = fixtureWidget({
    type: 'graph',
    metrics: ['sent'],
    filters: [{ member: 'country', operator: 'sounds_like', values: ['NL'] }],
  });
  renderWithProviders(<GraphWidget widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText(widgetMessages.chartError)).toBeTruthy();
  expect(screen.queryByRole('figure')).toBeNull();
  expect(error).toHaveBeenCalledWith('Widget query failed', expect.any(String));
  error.mockRestore();
});
