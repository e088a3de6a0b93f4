/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { formatValue } from '../../engine/format';
import { setupStore } from '../../store/store';
import { downloadProgressed, downloadStarted } from '../datasets/datasetsSlice';
import { setDatasetSink } from '../datasets/loadDataset';
import {
  MAIN,
  WORKSPACE_ID,
  fixtureWidget,
  startWidgetEngine,
  type WidgetEngine,
  storeWithDataset,
  widgetContext,
  widgetSchema,
} from './testing/widgetEngine';
import { WidgetBody } from './WidgetBody';

jest.setTimeout(60_000);

let engine: WidgetEngine;
beforeAll(async () => {
  engine = await startWidgetEngine({ pool: true });
  setDatasetSink((table, version, bytes) => engine.pool?.setDataset(table, version, bytes));
}, START_TIMEOUT_MS);
afterAll(() => engine?.stop(), START_TIMEOUT_MS);

let restore: () => void = () => undefined;
afterEach(() => restore());

const table = fixtureWidget({ type: 'table', dimensions: [], metrics: ['sent'] });

test('on a public report the dataset comes through the report link, then the widget shows its numbers', async () => {
  const network = stubNetwork((request) => {
    const url = new URL(request.url);
    if (url.pathname !== `/api/reports/9/datasets/${widgetSchema.id}`) return json({ error: 'Not found' }, 404);
    if (url.searchParams.get('schema') === 'true') return json(widgetSchema);
    const bytes = engine.fileBytes();
    return new Response(new Uint8Array(bytes), {
      headers: { ETag: '"f1"', 'X-Total-Length': String(bytes.byteLength) },
    });
  });
  restore = network.restore;
  const context = widgetContext({
    scope: { workspaceId: WORKSPACE_ID, publicReportId: 9 },
    ranges: { main: { ...MAIN, preset: 'custom' } },
  });
  renderWithProviders(<WidgetBody widget={table} context={context} />, { store: setupStore() });
  const [expected] = engine.sql(
    `SELECT CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'`,
  );
  expect(await screen.findByText(formatValue(expected.sent, 'number', 'en_US'))).toBeTruthy();
  expect(network.calls.map((call) => new URL(call.url).pathname)).toEqual([
    `/api/reports/9/datasets/${widgetSchema.id}`,
    `/api/reports/9/datasets/${widgetSchema.id}`,
  ]);
});

test('a dataset that cannot be fetched', async () => {
  const network = stubNetwork(() => json({ error: 'Not found' }, 404));
  restore = network.restore;
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  renderWithProviders(<WidgetBody widget={table} context={widgetContext()} />, { store: setupStore() });
  expect(await screen.findByText('Yikes! Something went wrong fetching your data.')).toBeTruthy();
  expect(new URL(network.calls[0].url).pathname).toBe(`/api/workspaces/${WORKSPACE_ID}/datasets/${widgetSchema.id}`);
  error.mockRestore();
});

test('while downloading: nothing for 500 ms, then a spinner with the download progress', () => {
  jest.useFakeTimers();
  try {
    const store = setupStore();
    const key = `${WORKSPACE_ID}/${widgetSchema.id}`;
    store.dispatch(downloadStarted({ key }));
    store.dispatch(downloadProgressed({ key, loaded: 450, total: 1000 }));
    renderWithProviders(<WidgetBody widget={table} context={widgetContext()} />, { store });
    expect(screen.getByRole('status', { name: 'Loading' }).textContent).toBe('');
    act(() => jest.advanceTimersByTime(499));
    expect(screen.queryByText(/Downloading data/)).toBeNull();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByText('Downloading data… 45%')).toBeTruthy();
  } finally {
    jest.useRealTimers();
  }
});

test('a type this version does not know', () => {
  renderWithProviders(<WidgetBody widget={fixtureWidget({ type: 'pie_chart' })} context={widgetContext()} />, {
    store: storeWithDataset(),
  });
  expect(screen.getByText('Pie chart widget is not supported yet in the new dashboard.')).toBeTruthy();
});
