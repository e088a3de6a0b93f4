import { act, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { type Widget } from '../../../contracts/reports';
import { formatValue } from '../../../engine/format';
import { MAIN, fixtureWidget, storeWithDataset, widgetContext, withWidgetEngine } from '../testing/widgetEngine';
import { WidgetBody } from '../WidgetBody';

jest.setTimeout(60_000);

const sql = withWidgetEngine();

test('the highest and lowest country per metric, in the workspace locale', async () => {
  const widget = fixtureWidget({ type: 'high_low', dimension: 'country', metrics: ['sent', 'open_rate'] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext({ locale: 'nl_NL' })} />, {
    store: storeWithDataset(),
  });
  const groups = sql(
    `SELECT country, CAST(SUM(sent) AS DOUBLE) AS sent, SUM(open) / SUM(delivered) AS open_rate
     FROM campaigns_fixture WHERE send_date BETWEEN DATE '${MAIN.start}' AND DATE '${MAIN.end}' GROUP BY country`,
  );
  for (const [metric, label, format] of [
    ['sent', 'Sent', 'number'],
    ['open_rate', 'Open rate', 'percent'],
  ] as const) {
    const sorted = [...groups].sort((a, b) => (b[metric] as number) - (a[metric] as number));
    const card = await screen.findByLabelText(label);
    const [high, low] = within(card).getAllByRole('definition');
    expect(high.textContent).toBe(
      formatValue(sorted[0].country, 'country', 'nl_NL') + formatValue(sorted[0][metric], format, 'nl_NL'),
    );
    expect(low.textContent).toBe(
      formatValue(sorted.at(-1)!.country, 'country', 'nl_NL') + formatValue(sorted.at(-1)![metric], format, 'nl_NL'),
    );
  }
});

test('a failing query is thrown to the widget error boundary; fixing the settings renders again', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const broken = fixtureWidget({
    type: 'high_low',
    dimension: 'country',
    metrics: ['sent'],
    filters: [{ member: 'country', operator: 'sounds_like', values: ['NL'] }],
  });
  let setWidget: (widget: Widget) => void = () => undefined;
  function Dashboard() {
    const [widget, set] = useState(broken);
    setWidget = set;
    return <WidgetBody widget={widget} context={widgetContext()} />;
  }
  renderWithProviders(<Dashboard />, { store: storeWithDataset() });
  expect(
    await screen.findByText(
      'An error was encountered rendering this widget. Create a ticket in our helpdesk via the link below if the problem persists.',
    ),
  ).toBeTruthy();
  // The ticket link opens the feedback drawer naming the widget and its error.
  const ticket = new URLSearchParams(
    screen.getByRole('link', { name: 'Create ticket' }).getAttribute('href')!.slice(2),
  );
  expect(Object.fromEntries(ticket)).toEqual({
    'drawer.type': 'feedback',
    'drawer.widget': 'High & low (high_low w1)',
    'drawer.error': 'Unsupported filter operator "sounds_like"',
  });
  act(() => setWidget({ ...broken, filters: [] }));
  expect(await screen.findByLabelText('Sent')).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Create ticket' })).toBeNull();
  error.mockRestore();
});

test('no dimension selected', async () => {
  const widget = fixtureWidget({ type: 'high_low', metrics: ['sent'] });
  renderWithProviders(<WidgetBody widget={widget} context={widgetContext()} />, { store: storeWithDataset() });
  expect(await screen.findByText('No dimension or metric selected')).toBeTruthy();
});
