import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type Widget } from '../../contracts/reports';
import { downloadSucceeded } from '../datasets/datasetsSlice';
import {
  fixtureWidget,
  startWidgetEngine,
  storeWithDataset,
  type WidgetEngine,
  widgetContext,
  widgetSchema,
  WORKSPACE_ID,
} from '../widgets/testing/widgetEngine';
import { ConfigureWidgetDrawer } from './ConfigureWidgetDrawer';

jest.setTimeout(60_000);

let engine: WidgetEngine;
beforeAll(async () => {
  engine = await startWidgetEngine();
}, START_TIMEOUT_MS);
afterAll(() => engine?.stop(), START_TIMEOUT_MS);

/** The canvas's part: it keeps the widget and takes every change the drawer hands back. */
function Harness({ initial, changes }: { initial: Widget; changes: Widget[] }) {
  const [widget, setWidget] = useState(initial);
  return (
    <ConfigureWidgetDrawer
      isOpen
      widget={widget}
      context={widgetContext()}
      onChange={(next) => {
        changes.push(next);
        setWidget(next);
      }}
      onClose={() => undefined}
    />
  );
}

const settings = () => screen.getByRole('region', { name: 'Widget settings' });
const preview = () => screen.getByRole('region', { name: 'Preview' });

/** Lets the popover's positioning settle, as a browser would between events. */
const settle = () => act(async () => undefined);

async function pick(label: string, option: string) {
  const input = within(settings()).getByRole('textbox', { name: label });
  fireEvent.click(input);
  fireEvent.change(input, { target: { value: option } });
  await settle();
  const item = screen.getByRole('option', { name: option });
  fireEvent.click(within(item).getByText(option));
  await settle();
}

test("says 'Widget not found' for an unknown widget", () => {
  renderWithProviders(
    <ConfigureWidgetDrawer
      isOpen
      widget={undefined}
      context={widgetContext()}
      onChange={jest.fn()}
      onClose={jest.fn()}
    />,
  );
  expect(screen.getByRole('heading', { name: 'Configure widget' })).toBeTruthy();
  expect(screen.getByText('Widget not found')).toBeTruthy();
});

test('a metric added in the settings reaches the canvas and shows in the preview', async () => {
  const changes: Widget[] = [];
  const initial = fixtureWidget({ type: 'table', dimensions: ['country'], metrics: ['sent'] });
  renderWithProviders(<Harness initial={initial} changes={changes} />, { store: storeWithDataset() });
  await within(preview()).findByRole('table');
  await pick('Metrics', 'Revenue');
  expect(changes.at(-1)?.metrics).toEqual(['sent', 'revenue']);
  await waitFor(() => expect(within(preview()).getByRole('columnheader', { name: 'Revenue' })).toBeTruthy());
});

test('the settings and the preview leave out what the dataset lacks, and the first edit saves it cleaned', async () => {
  const changes: Widget[] = [];
  const initial = fixtureWidget({ type: 'table', dimensions: ['country', 'device'], metrics: ['sent', 'ghost'] });
  renderWithProviders(<Harness initial={initial} changes={changes} />, { store: storeWithDataset() });
  const metrics = within(settings()).getByRole('textbox', { name: 'Metrics' }).closest('.bp6-tag-input')!;
  expect(within(metrics as HTMLElement).queryByText('ghost')).toBeNull();
  expect(changes).toHaveLength(0);
  fireEvent.change(within(settings()).getByRole('textbox', { name: 'Title' }), { target: { value: 'Per country' } });
  expect(changes.at(-1)).toMatchObject({ title: 'Per country', metrics: ['sent'], dimensions: ['country'] });
});

test('stacked bars turn grouped when a weighted-average metric is chosen', async () => {
  const changes: Widget[] = [];
  const initial = fixtureWidget({
    type: 'graph',
    metrics: ['sent'],
    visualizationSettings: { chart: { chartType: 'bar', groupMode: 'stacked' } },
  });
  renderWithProviders(<Harness initial={initial} changes={changes} />, { store: storeWithDataset() });
  await pick('Metrics', 'Open rate');
  expect(changes.at(-1)?.visualizationSettings?.chart?.groupMode).toBe('grouped');
  expect(within(settings()).getByText('Rates cannot be stacked: the bars are grouped.')).toBeTruthy();
});

test('the funnel keeps at least one metric', async () => {
  const changes: Widget[] = [];
  const initial = fixtureWidget({ type: 'funnel', funnelMetrics: ['sent'] });
  renderWithProviders(<Harness initial={initial} changes={changes} />, { store: storeWithDataset() });
  const tags = within(settings()).getByRole('textbox', { name: 'Funnel metrics' }).closest('.bp6-tag-input')!;
  fireEvent.click(within(tags as HTMLElement).getByRole('button', { name: /remove/i }));
  expect(changes).toHaveLength(0);
});

describe('filter form', () => {
  test('equals picks among the distinct values of the dimension, and switching operator resets them', async () => {
    const changes: Widget[] = [];
    const initial = fixtureWidget({ type: 'table', dimensions: ['country'], metrics: ['sent'] });
    renderWithProviders(<Harness initial={initial} changes={changes} />, { store: storeWithDataset() });
    fireEvent.click(within(settings()).getByRole('button', { name: 'Add filter' }));
    const row = () => within(settings()).getByRole('group', { name: 'Filter' });
    expect(within(row()).getAllByText('This field is required').length).toBeGreaterThan(0);
    fireEvent.change(within(row()).getByRole('combobox', { name: 'Field' }), { target: { value: 'country' } });
    expect(changes.at(-1)?.filters).toEqual([{ member: 'country', operator: 'equals', values: [] }]);

    const input = within(row()).getByRole('textbox', { name: 'Values' });
    fireEvent.click(input);
    await settle();
    const expected = engine
      .sql(`SELECT DISTINCT country FROM campaigns_fixture ORDER BY country`)
      .map((r) => r.country);
    const menu = await screen.findByRole('listbox', { name: 'Values options' });
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(expected),
    );
    fireEvent.click(
      within(within(menu).getByRole('option', { name: String(expected[0]) })).getByText(String(expected[0])),
    );
    await settle();
    expect(changes.at(-1)?.filters).toEqual([{ member: 'country', operator: 'equals', values: [expected[0]] }]);

    // A value nobody has sent to yet can be typed in.
    fireEvent.change(input, { target: { value: 'ZZ' } });
    // Blueprint's list acts on the whole key press (down, then up), as a keyboard sends it.
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.keyUp(input, { key: 'Enter' });
    expect(changes.at(-1)?.filters?.[0].values).toEqual([expected[0], 'ZZ']);

    fireEvent.change(within(row()).getByRole('combobox', { name: 'Operator' }), { target: { value: 'contains' } });
    expect(changes.at(-1)?.filters).toEqual([{ member: 'country', operator: 'contains', values: [] }]);

    fireEvent.change(within(row()).getByRole('combobox', { name: 'Operator' }), { target: { value: 'notSet' } });
    expect(within(row()).queryByRole('textbox', { name: 'Values' })).toBeNull();
    expect(within(row()).queryByText('This field is required')).toBeNull();
  });
});

test('after a dataset switch, what the new dataset lacks is dropped once its schema is known', async () => {
  const store = storeWithDataset();
  // A second dataset over the same rows, without the send metrics.
  const ga4 = {
    ...widgetSchema,
    id: 'ga4',
    fields: widgetSchema.fields.filter((field) => !['sent', 'delivered', 'open_rate'].includes(field.id)),
  };
  store.dispatch(
    downloadSucceeded({
      key: `${WORKSPACE_ID}/ga4`,
      version: `${WORKSPACE_ID}:ga4`,
      schema: ga4,
      fetchedAt: Date.now(),
    }),
  );
  const changes: Widget[] = [];
  const initial = fixtureWidget({ type: 'table', dimensions: ['country'], metrics: ['sent', 'revenue'] });
  renderWithProviders(<Harness initial={initial} changes={changes} />, { store });
  fireEvent.change(within(settings()).getByRole('combobox', { name: 'Dataset' }), { target: { value: 'ga4' } });
  expect(changes[0]).toMatchObject({ dataset: 'ga4', metrics: ['sent', 'revenue'] });
  await waitFor(() => expect(changes.at(-1)?.metrics).toEqual(['revenue']));
  expect(changes.at(-1)?.dimensions).toEqual(['country']);
  expect(changes).toHaveLength(2);
});
