/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../../test/stubNetwork';
import { type Widget } from '../../../contracts/reports';
import { type WidgetConfigAction } from '../../widget-config/widgetEdits';
import { TargetSettings } from './TargetSettings';

const target = (id: string, title: string, dateEnd: string) => ({
  id,
  workspaceId: 3,
  title,
  dataset: 'campaign_metrics_by_send_date',
  metric: 'sent',
  target: 10,
  dateStart: '2026-01-01',
  dateEnd,
  visualization: 'line',
  filters: [],
});

let network: ReturnType<typeof stubNetwork>;
beforeEach(() => {
  network = stubNetwork(() =>
    json({
      data: [target('a', 'Alpha', '2026-01-31'), target('b', 'Beta', '2026-03-31'), target('c', 'Gamma', '2026-03-31')],
    }),
  );
});
afterEach(() => network.restore());

test("picks among the workspace's targets, latest end first, and keeps the widget's order", async () => {
  const edits: WidgetConfigAction[] = [];
  const widget: Widget = { id: 'w', type: 'target', targets: ['c'] };
  renderWithProviders(
    <TargetSettings widget={widget} scope={{ workspaceId: 3 }} onEdit={(edit) => edits.push(edit)} />,
  );
  fireEvent.click(screen.getByRole('textbox', { name: 'Targets' }));
  const menu = await screen.findByRole('listbox', { name: 'Targets options' });
  await waitFor(() =>
    expect(
      within(menu)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Beta', 'Alpha']),
  );
  fireEvent.click(within(within(menu).getByRole('option', { name: 'Alpha' })).getByText('Alpha'));
  expect(edits.at(-1)).toEqual({ type: 'widgetConfig/targetsChanged', payload: ['c', 'a'] });
});
