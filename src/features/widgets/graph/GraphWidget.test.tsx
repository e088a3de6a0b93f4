import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { fixtureWidget, startWidgetEngine, storeWithDataset, widgetContext } from '../testing/widgetEngine';
import { widgetMessages } from '../WidgetStates';
import { GraphWidget } from './GraphWidget';

jest.setTimeout(60_000);

beforeAll(async () => {
  await startWidgetEngine();
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
