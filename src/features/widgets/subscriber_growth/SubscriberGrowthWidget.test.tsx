import { fireEvent, screen, within } from '@testing-library/react';
import { tableToIPC } from 'apache-arrow';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../../test/timeouts';
import { type DatasetSchema } from '../../../contracts/datasets';
import { type Widget } from '../../../contracts/reports';
import { type DayRange } from '../../../engine/dates';
import { formatValue } from '../../../engine/format';
import { listColumns, listRows, listSchema, tableSql } from '../../../engine/testing/fixtures';
import { openNodeDuckdb, rows } from '../../../engine/testing/nodeDuckdb';
import { setQueryRunner } from '../../../store/engineApi';
import { setupStore } from '../../../store/store';
import { downloadSucceeded } from '../../datasets/datasetsSlice';
import { type WidgetContext } from '../types';
import { subscriberMessages } from './subscriberGrowthModel';
import { SubscriberGrowthWidget } from './SubscriberGrowthWidget';

jest.setTimeout(60_000);

const WORKSPACE_ID = 9;
const RANGE: DayRange = { start: '2024-01-06', end: '2024-02-04' };
let sql: (text: string) => Record<string, unknown>[];

beforeAll(async () => {
  const conn = await openNodeDuckdb();
  for (const statement of tableSql(listSchema.tableId, listColumns, listRows())) conn.query(statement);
  setQueryRunner(async () => ({ query: async (request) => tableToIPC(conn.query(request.sql), 'stream') }));
  sql = (text) => rows(conn, text);
}, START_TIMEOUT_MS);

function storeWith(schema: DatasetSchema = listSchema) {
  const store = setupStore();
  store.dispatch(
    downloadSucceeded({ key: `${WORKSPACE_ID}/${listSchema.id}`, version: 'v1', schema, fetchedAt: Date.now() }),
  );
  return store;
}

const context = (overrides: Partial<WidgetContext> = {}): WidgetContext => ({
  scope: { workspaceId: WORKSPACE_ID },
  ranges: { main: { ...RANGE, preset: 'custom' }, compare: undefined },
  filters: [],
  locale: 'nl_NL',
  weekStart: 1,
  flags: ['list_members'],
  editMode: false,
  canEdit: true,
  ...overrides,
});

const widget = (extra: Partial<Widget> = {}): Widget => ({
  id: 'sg',
  type: 'subscriber_growth',
  dataset: listSchema.id,
  filteredLists: ['A', 'B'],
  ...extra,
});

/** Each list's summary written independently: members on its last day in the range, the flows summed. */
function expectedSummary(list: string) {
  const within = `date BETWEEN DATE '${RANGE.start}' AND DATE '${RANGE.end}' AND list_name = '${list}'`;
  const [row] = sql(
    `SELECT SUM(members) FILTER (WHERE date = (SELECT max(date) FROM lists_fixture WHERE ${within}))::DOUBLE AS members, ` +
      `SUM(members_in)::DOUBLE AS "in", SUM(members_out)::DOUBLE AS "out", SUM(members_delta)::DOUBLE AS delta ` +
      `FROM lists_fixture WHERE ${within}`,
  );
  return ['Members', 'In', 'Out', 'Delta'].map(
    (label, i) => `${label}${formatValue([row.members, row.in, row.out, row.delta][i], 'number', 'nl_NL')}`,
  );
}

const statsOf = (container: HTMLElement) =>
  [...container.querySelectorAll('.or-subscriber-summary > div')].map((stat) => stat.textContent);

test('without the list_members feature the widget says it is not supported', () => {
  renderWithProviders(<SubscriberGrowthWidget widget={widget()} context={context({ flags: [] })} />, {
    store: storeWith(),
  });
  expect(screen.getByText(subscriberMessages.unsupported)).toBeTruthy();
});

test('with no list chosen it asks for one', () => {
  renderWithProviders(<SubscriberGrowthWidget widget={widget({ filteredLists: [] })} context={context()} />, {
    store: storeWith(),
  });
  expect(screen.getByText('No list selected')).toBeTruthy();
  expect(screen.getByText('Select a list in the configuration panel')).toBeTruthy();
});

test('a tab per list, the first open, with the summary a hand-written query gives', async () => {
  renderWithProviders(<SubscriberGrowthWidget widget={widget()} context={context()} />, { store: storeWith() });
  const tabs = await screen.findAllByRole('tab');
  expect(tabs.map((tab) => tab.textContent)).toEqual(['A', 'B']);
  expect(tabs[0].getAttribute('aria-selected')).toBe('true');
  expect(statsOf(screen.getByRole('tabpanel'))).toEqual(expectedSummary('A'));
  fireEvent.click(tabs[1]);
  expect(statsOf(screen.getByRole('tabpanel'))).toEqual(expectedSummary('B'));
});

test('with autofocus disabled no list is open until one is picked', async () => {
  renderWithProviders(
    <SubscriberGrowthWidget widget={widget({ disableAutofocusFirstTab: true })} context={context()} />,
    {
      store: storeWith(),
    },
  );
  const tabs = await screen.findAllByRole('tab');
  expect(tabs.every((tab) => tab.getAttribute('aria-selected') === 'false')).toBe(true);
  expect(screen.queryByRole('tabpanel')).toBeNull();
  fireEvent.click(tabs[1]);
  expect(statsOf(screen.getByRole('tabpanel'))).toEqual(expectedSummary('B'));
});

test('in the list layout (legacy) a click on the open tab collapses it; in the grid it stays open', async () => {
  const legacy = renderWithProviders(
    <SubscriberGrowthWidget widget={widget()} context={context({ listLayout: true })} />,
    { store: storeWith() },
  );
  let tabs = await screen.findAllByRole('tab');
  expect(tabs[0].getAttribute('aria-selected')).toBe('true');
  fireEvent.click(tabs[0]);
  expect(screen.queryByRole('tabpanel')).toBeNull();
  fireEvent.click(tabs[1]);
  expect(statsOf(screen.getByRole('tabpanel'))).toEqual(expectedSummary('B'));
  legacy.unmount();

  renderWithProviders(<SubscriberGrowthWidget widget={widget()} context={context({ listLayout: false })} />, {
    store: storeWith(),
  });
  tabs = await screen.findAllByRole('tab');
  fireEvent.click(tabs[0]);
  expect(statsOf(screen.getByRole('tabpanel'))).toEqual(expectedSummary('A'));
});

test('the card display shows every list at once', async () => {
  renderWithProviders(
    <SubscriberGrowthWidget
      widget={widget({ visualizationSettings: { display: { type: 'card' } } })}
      context={context()}
    />,
    { store: storeWith() },
  );
  const card = await screen.findByLabelText('B');
  expect(statsOf(card)).toEqual(expectedSummary('B'));
  expect(statsOf(screen.getByLabelText('A'))).toEqual(expectedSummary('A'));
});

test('a failing query shows the alert', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  // A dataset file the engine does not hold: the query itself fails.
  renderWithProviders(<SubscriberGrowthWidget widget={widget()} context={context()} />, {
    store: storeWith({ ...listSchema, tableId: 'lists_missing' }),
  });
  const alert = await screen.findByRole('alert');
  expect(within(alert).getByText(subscriberMessages.fetchFailed)).toBeTruthy();
  expect(error).toHaveBeenCalled();
  error.mockRestore();
});
