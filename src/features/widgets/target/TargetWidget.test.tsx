/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type Target } from '../../../contracts/targets';
import { formatValue } from '../../../engine/format';
import { metric } from '../../../engine/testing/fixtures';
import { downloadSucceeded } from '../../datasets/datasetsSlice';
import {
  fixtureWidget,
  storeWithDataset,
  WORKSPACE_ID,
  widgetContext,
  widgetSchema,
  withWidgetEngine,
} from '../testing/widgetEngine';
import { WidgetBody } from '../WidgetBody';
import { NO_TARGET, NO_TARGET_HELP } from './TargetWidget';

jest.setTimeout(60_000);

const sql = withWidgetEngine();

const target = (changes: Partial<Target>): Target => ({
  id: 't1',
  workspaceId: WORKSPACE_ID,
  title: 'February sends',
  dataset: 'campaign_metrics_by_send_date',
  metric: 'sent',
  target: 100_000,
  dateStart: '2024-02-01',
  dateEnd: '2024-02-29',
  visualization: 'line',
  filters: [{ member: 'country', operator: 'equals', values: ['NL'] }],
  ...changes,
});

const targets = [
  target({}),
  target({ id: 't2', title: 'Huge goal', target: 1e9, visualization: 'bar', filters: [] }),
  target({ id: 't3', title: 'Campaign count', metric: 'campaigns', target: 30 }),
  target({ id: 't4', title: 'Not on this widget' }),
  target({ id: 't5', title: 'Net revenue', metric: 'net_revenue', target: 20_000 }),
  target({ id: 't6', title: 'Retired metric', metric: 'retired' }),
];

/** The fixture's dataset with a data-model custom metric, a sum of its parts. */
const schemaWithCustomField = {
  ...widgetSchema,
  fields: [...widgetSchema.fields, metric('net_revenue', { type: 'custom', expression: 'revenue - sent * 0.01' })],
};

/** The store with the engine's fixture standing in for the send-date dataset the targets name. */
function store() {
  const result = storeWithDataset();
  // The engine reads the schema under its own id too: both carry the custom field.
  for (const dataset of ['campaign_metrics_by_send_date', widgetSchema.id]) {
    result.dispatch(
      downloadSucceeded({
        key: `${WORKSPACE_ID}/${dataset}`,
        version: `${WORKSPACE_ID}:v1`,
        schema: schemaWithCustomField,
        fetchedAt: Date.now(),
      }),
    );
  }
  return result;
}

let network: ReturnType<typeof stubNetwork>;
beforeEach(() => {
  network = stubNetwork((request) => {
    const path = new URL(request.url).pathname;
    if (path === `/api/workspaces/${WORKSPACE_ID}/targets`) return json({ data: targets });
    if (path === '/api/reports/5/targets') return json({ data: [targets[1]] });
    return json({ error: 'Not found' }, 404);
  });
});
afterEach(() => network.restore());

test('cards of the widget’s targets in its order: the final numbers of a past period, its status and menu', async () => {
  const widget = fixtureWidget({ type: 'target', targets: ['t2', 't1', 't3', 't5', 't6', 'gone'] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: store() });
  const cards = await screen.findAllByRole('article');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual([
    'Target Huge goal',
    'Target February sends',
    'Target Campaign count',
    'Target Net revenue',
    'Target Retired metric',
  ]);
  const [{ sent, campaigns, net }] = sql(
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent, CAST(COUNT(DISTINCT campaign_id) AS DOUBLE) AS campaigns,
       CAST(SUM(revenue) - SUM(sent) * 0.01 AS DOUBLE) AS net
     FROM campaigns_fixture
     WHERE country = 'NL' AND send_date BETWEEN DATE '2024-02-01' AND DATE '2024-02-29'`,
  );
  const february = cards[1];
  expect(await within(february).findByText(formatValue(sent, 'number', 'en_US'))).toBeTruthy();
  expect(within(february).getByLabelText('Percent reached').textContent).toBe(
    formatValue((sent as number) / 100_000, 'percent', 'en_US'),
  );
  const status = february.querySelector('[data-status]')!.getAttribute('data-status');
  expect(status).toBe((sent as number) >= 100_000 ? 'success' : 'error');
  // A billion sends were never reached: the period has ended, so the card is in the error colour.
  await within(cards[0]).findByLabelText('Percent reached');
  expect(cards[0].querySelector('[data-status]')!.getAttribute('data-status')).toBe('error');
  expect(cards[0].querySelector('svg.or-target-chart')!.getAttribute('data-visualization')).toBe('bar');
  // A distinct count and a custom metric are followed like any sum: their values over the whole period.
  for (const [card, value, goal] of [
    [cards[2], campaigns, 30],
    [cards[3], net, 20_000],
  ] as const) {
    expect(await within(card).findByText(formatValue(value, 'number', 'en_US'))).toBeTruthy();
    expect(within(card).getByLabelText('Percent reached').textContent).toBe(
      formatValue((value as number) / goal, 'percent', 'en_US'),
    );
  }
  expect(await within(cards[4]).findByText('Unsupported metric "retired"')).toBeTruthy();
  expect(within(cards[4]).getByRole('button', { name: 'Remove' })).toBeTruthy();
  expect(within(february).getByRole('button', { name: 'Target menu of February sends' })).toBeTruthy();
});

test('read-only: no menu, no add; and no targets shows the spec’s message', async () => {
  const context = widgetContext({ canEdit: false });
  const { unmount } = renderWithProviders(
    <WidgetBody widget={fixtureWidget({ type: 'target', targets: ['t1'] })} context={context} />,
    { store: store() },
  );
  await screen.findByRole('article');
  expect(screen.queryByRole('button', { name: /Target menu/ })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Add target' })).toBeNull();
  unmount();
  renderWithProviders(<WidgetBody widget={fixtureWidget({ type: 'target', targets: [] })} context={context} />, {
    store: store(),
  });
  expect(await screen.findByText(NO_TARGET)).toBeTruthy();
  expect(screen.getByText(NO_TARGET_HELP)).toBeTruthy();
});

test('on a public report the targets come from the report’s own route', async () => {
  const context = widgetContext({ canEdit: false, scope: { workspaceId: WORKSPACE_ID, publicReportId: 5 } });
  renderWithProviders(<WidgetBody widget={fixtureWidget({ type: 'target', targets: ['t2'] })} context={context} />, {
    store: store(),
  });
  expect((await screen.findByRole('article')).getAttribute('aria-label')).toBe('Target Huge goal');
  expect(network.calls.map((request) => new URL(request.url).pathname)).toContain('/api/reports/5/targets');
  expect(network.calls.map((request) => new URL(request.url).pathname)).not.toContain(
    `/api/workspaces/${WORKSPACE_ID}/targets`,
  );
});
