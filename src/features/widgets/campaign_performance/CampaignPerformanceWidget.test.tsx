import { fireEvent, screen, within } from '@testing-library/react';
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
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent, SUM(open) / SUM(delivered) AS open_rate, CAST(SUM(delivered) AS DOUBLE) AS delivered,
       COUNT(DISTINCT send_date) AS days
     FROM campaigns_fixture WHERE send_date BETWEEN DATE '${range.start}' AND DATE '${range.end}'`,
  )[0];

const render = (widget: Parameters<typeof fixtureWidget>[0], locale: 'en_US' | 'en_GB' | 'nl_NL' = 'en_GB') =>
  renderWithProviders(<WidgetBody widget={fixtureWidget(widget)} context={widgetContext({ locale })} />, {
    store: storeWithDataset(),
  });

test('grid cards: period totals, change against the comparison, a sparkline per day, and unknown metrics', async () => {
  render({
    type: 'campaign_performance',
    metrics: ['sent', 'open_rate', 'no_such_metric'],
    visualizationSettings: { display: { type: 'grid' } },
  });
  const main = totals(MAIN);
  const before = totals(COMPARE);

  const sent = await screen.findByLabelText('Sent');
  expect(within(sent).getByText(formatValue(main.sent, 'number', 'en_GB'))).toBeTruthy();
  expect(within(sent).getByText(formatChange(relativeChange(main.sent, before.sent), 'en_GB'))).toBeTruthy();
  expect(sent.textContent).toContain(`vs ${formatValue(before.sent, 'number', 'en_GB')}`);

  const rate = screen.getByLabelText('Open rate');
  expect(within(rate).getByText(formatValue(main.open_rate, 'percent', 'en_GB'))).toBeTruthy();
  expect(within(rate).getByText(formatChange(relativeChange(main.open_rate, before.open_rate), 'en_GB'))).toBeTruthy();

  // Auto granularity over 29 days is daily: one point per day with sends.
  const line = await within(sent).findByRole('img', { name: 'Sent over the period' });
  const points = line.querySelector('.or-sparkline-main')?.getAttribute('d')?.match(/[ML]/g) ?? [];
  expect(points).toHaveLength(main.days as number);

  expect(within(screen.getByLabelText('no_such_metric')).getByText('Metric not found')).toBeTruthy();
});

test('colours flip for negative measures, where a lower value is better', async () => {
  render(
    {
      type: 'campaign_performance',
      metrics: ['delivered', 'sent'],
      visualizationSettings: { display: { type: 'card' } },
    },
    'nl_NL',
  );
  const main = totals(MAIN);
  const before = totals(COMPARE);
  const deliveredChange = relativeChange(main.delivered, before.delivered)!;
  const sentChange = relativeChange(main.sent, before.sent)!;
  // Both changes are beyond the neutral band, so the colours tell good from bad news.
  expect(Math.abs(deliveredChange)).toBeGreaterThanOrEqual(0.005);
  expect(Math.abs(sentChange)).toBeGreaterThanOrEqual(0.005);
  const card = await screen.findByLabelText('Delivered');
  const shown = within(card).getByText(formatChange(deliveredChange, 'nl_NL'));
  const good = deliveredChange < 0 ? 'positive' : 'negative';
  expect(shown.className).toContain(`or-change-${good}`);
  const sentShown = within(screen.getByLabelText('Sent')).getByText(formatChange(sentChange, 'nl_NL'));
  const sentGood = sentChange > 0 ? 'positive' : 'negative';
  expect(sentShown.className).toContain(`or-change-${sentGood}`);
  // Card display has no sparklines.
  expect(screen.queryByRole('img')).toBeNull();
});

test('tab display: one tab per metric, the selected one charted', async () => {
  render({ type: 'campaign_performance', metrics: ['sent', 'open_rate'] }, 'en_US');
  const tabs = await screen.findAllByRole('tab');
  // Each tab is named by its visible content: the metric's label, then its figures.
  expect(tabs.map((tab) => tab.textContent)).toEqual([
    expect.stringMatching(/^Sent/),
    expect.stringMatching(/^Open rate/),
  ]);
  expect(tabs[0].getAttribute('aria-selected')).toBe('true');
  expect(await within(screen.getByRole('tabpanel')).findByRole('img', { name: 'Sent over the period' })).toBeTruthy();
  fireEvent.click(tabs[1]);
  expect(screen.getAllByRole('tab')[1].getAttribute('aria-selected')).toBe('true');
  expect(within(screen.getByRole('tabpanel')).getByRole('img', { name: 'Open rate over the period' })).toBeTruthy();
});

test.each([
  ['en_US', 'en-US', 'USD', '$'],
  ['en_GB', 'en-GB', 'GBP', '£'],
  ['nl_NL', 'nl-NL', 'EUR', '€'],
] as const)('revenue in a %s workspace is shown in %s', async (locale, tag, currency, sign) => {
  render(
    { type: 'campaign_performance', metrics: ['revenue'], visualizationSettings: { display: { type: 'grid' } } },
    locale,
  );
  const [expected] = sql(
    `SELECT CAST(SUM(revenue) AS DOUBLE) AS revenue FROM campaigns_fixture
     WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'`,
  );
  const money = new Intl.NumberFormat(tag, { style: 'currency', currency }).format(expected.revenue as number);
  expect(money).toContain(sign);
  const card = await screen.findByLabelText('Revenue');
  // The DOM queries collapse Intl's no-break space after the euro sign into a plain space.
  expect(within(card).getByText(money.replace(/\s/g, ' '))).toBeTruthy();
});

test('no metric selected', async () => {
  render({ type: 'campaign_performance', metrics: [] });
  expect(await screen.findByText('No metric selected')).toBeTruthy();
  expect(screen.getByText('Select at least one metric in the configuration panel')).toBeTruthy();
});
