import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { type Widget } from '../../../contracts/reports';
import { formatValue } from '../../../engine/format';
import { MAIN, fixtureWidget, storeWithDataset, widgetContext, withWidgetEngine } from '../testing/widgetEngine';
import { WidgetBody } from '../WidgetBody';

jest.setTimeout(60_000);

const sql = withWidgetEngine();

const topCampaigns = (limit: number) =>
  sql(
    `SELECT campaign_name, CAST(SUM(sent) AS DOUBLE) AS sent FROM campaigns_fixture
     WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}'
     GROUP BY campaign_name ORDER BY sent DESC LIMIT ${limit}`,
  );

const shownRows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => {
      const [name, value] = within(row).getAllByRole('cell');
      return [name.textContent, value.querySelector('.or-compare-value')?.textContent];
    });

/** The widget as a dashboard holds it: a change it makes comes back as its new settings. */
function SavedList({ initial, onChange }: { initial: Widget; onChange: (widget: Widget) => void }) {
  const [widget, setWidget] = useState(initial);
  const change = (next: Widget) => {
    onChange(next);
    setWidget(next);
  };
  return <WidgetBody widget={widget} context={widgetContext()} onChange={change} />;
}

test('the top 5 campaigns by sends, largest first; header clicks change the saved order', async () => {
  const onChange = jest.fn<void, [Widget]>();
  const widget = fixtureWidget({ type: 'list', dimension: 'campaign_name', metrics: ['sent'], limit: 5 });
  renderWithProviders(<SavedList initial={widget} onChange={onChange} />, { store: storeWithDataset() });
  const table = await screen.findByRole('table');
  const top = topCampaigns(5).map((row) => [
    formatValue(row.campaign_name, 'string', 'en_US'),
    formatValue(row.sent, 'number', 'en_US'),
  ]);
  expect(shownRows(table)).toEqual(top);

  // A new column sorts descending first.
  fireEvent.click(within(table).getByRole('button', { name: 'campaign_name' }));
  expect(onChange.mock.calls[0][0].visualizationSettings?.display).toEqual({ orderBy: 'dimension', order: 'desc' });
  const descending = [...top].sort((a, b) => b[0].localeCompare(a[0], undefined, { sensitivity: 'base' }));
  expect(shownRows(await screen.findByRole('table'))).toEqual(descending);

  // The same column again flips to ascending.
  fireEvent.click(within(screen.getByRole('table')).getByRole('button', { name: 'campaign_name' }));
  expect(onChange.mock.calls[1][0].visualizationSettings?.display).toEqual({ orderBy: 'dimension', order: 'asc' });
  expect(shownRows(await screen.findByRole('table'))).toEqual([...descending].reverse());

  // Back to the current period: descending first again.
  fireEvent.click(within(screen.getByRole('table')).getByRole('button', { name: 'Sent' }));
  expect(onChange.mock.calls[2][0].visualizationSettings?.display).toEqual({ orderBy: 'currentPeriod', order: 'desc' });
  expect(shownRows(await screen.findByRole('table'))).toEqual(top);
});

test('limit none lists every value', async () => {
  const widget = fixtureWidget({ type: 'list', dimension: 'campaign_name', metrics: ['sent'], limit: null });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  const table = await screen.findByRole('table');
  expect(shownRows(table)).toHaveLength(topCampaigns(1000).length);
});

test('nothing to list without a dimension', async () => {
  const widget = fixtureWidget({ type: 'list', metrics: ['sent'] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText('No dimension or metric selected')).toBeTruthy();
});
