import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { formatChange, formatValue, relativeChange } from '../../../engine/format';
import {
  COMPARE,
  MAIN,
  fixtureWidget,
  storeWithDataset,
  widgetContext,
  withWidgetEngine,
} from '../testing/widgetEngine';
import { WidgetBody } from '../WidgetBody';

jest.setTimeout(60_000);

const sql = withWidgetEngine();

const totals = (range: { start: string; end: string }) =>
  sql(
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent, CAST(SUM(delivered) AS DOUBLE) AS delivered,
       CAST(SUM(open) AS DOUBLE) AS open, CAST(SUM(clicks_unique) AS DOUBLE) AS clicks_unique
     FROM campaigns_fixture WHERE country <> 'DE' AND send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}'`,
  )[0];

test('steps with their totals and share of the first, and the conversion rate against the comparison', async () => {
  const widget = fixtureWidget({
    type: 'funnel',
    funnelMetrics: ['sent', 'delivered', 'open', 'clicks_unique'],
    conversionMetric: 'open',
    filters: [{ member: 'country', operator: 'notEquals', values: ['DE'] }],
    visualizationSettings: { funnel: { direction: 'vertical' } },
  });
  const { container } = renderWithProviders(
    <WidgetBody widget={widget} context={widgetContext({ locale: 'en_GB' })} />,
    { store: storeWithDataset() },
  );
  const main = totals(MAIN);
  const before = totals(COMPARE);
  const steps = await screen.findAllByRole('listitem');
  expect(steps.map((step) => step.getAttribute('aria-label'))).toEqual(['Sent', 'Delivered', 'open', 'clicks_unique']);
  for (const [index, id] of (['sent', 'delivered', 'open', 'clicks_unique'] as const).entries()) {
    expect(within(steps[index]).getByText(formatValue(main[id], 'number', 'en_GB'))).toBeTruthy();
    const share = (main[id] as number) / (main.sent as number);
    expect(within(steps[index]).getByText(formatValue(share, 'percent', 'en_GB'))).toBeTruthy();
  }
  const rate = (main.open as number) / (main.sent as number);
  const previousRate = (before.open as number) / (before.sent as number);
  const headline = screen.getByLabelText('Conversion rate');
  expect(within(headline).getByText(formatValue(rate, 'percent', 'en_GB'))).toBeTruthy();
  expect(within(headline).getByText(formatChange(relativeChange(rate, previousRate), 'en_GB'))).toBeTruthy();
  expect(container.querySelector('.or-funnel-vertical')).not.toBeNull();
});

test('at least one metric', async () => {
  const widget = fixtureWidget({ type: 'funnel', funnelMetrics: [] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText('No metric selected')).toBeTruthy();
});
