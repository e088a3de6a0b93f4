/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type DashboardConfig } from '../../contracts/reports';
import { useWidgetContext } from './useWidgetContext';

function Probe({ config }: { config: DashboardConfig }) {
  const context = useWidgetContext(config, { workspaceId: 4 }, true, true);
  return <pre data-testid="context">{JSON.stringify(context)}</pre>;
}

const shown = () => JSON.parse(screen.getByTestId('context').textContent ?? '{}') as Record<string, unknown>;

test("widgets get the dashboard's resolved dates, its global filters and the workspace's flags", async () => {
  const network = stubNetwork((request) =>
    request.url.endsWith('/workspaces/4/flags') ? json({ data: ['list_members'] }) : json({ error: 'Not found' }, 404),
  );
  try {
    const filters = [{ member: 'campaign_name', operator: 'set' }];
    renderWithProviders(
      <Probe
        config={{
          widgets: [],
          filters,
          dateRanges: {
            main: { start: '2026-01-01', end: '2026-01-31', preset: 'custom' },
            compare: { preset: 'preceding_period' },
          },
        }}
      />,
    );
    await waitFor(() => expect(shown().flags).toEqual(['list_members']));
    expect(shown()).toMatchObject({
      scope: { workspaceId: 4 },
      ranges: {
        main: { start: '2026-01-01', end: '2026-01-31', preset: 'custom' },
        compare: { start: '2025-12-01', end: '2025-12-31', preset: 'preceding_period' },
      },
      filters,
      editMode: true,
      canEdit: true,
    });
  } finally {
    network.restore();
  }
});

test('without saved dates, the last 30 days against the preceding period', () => {
  const network = stubNetwork(() => json({ error: 'Not found' }, 404));
  try {
    renderWithProviders(<Probe config={{ widgets: [] }} />);
    const { ranges, filters } = shown() as {
      ranges: { main: { preset: string }; compare: { preset: string } };
      filters: unknown[];
    };
    expect(ranges.main.preset).toBe('last_30_days');
    expect(ranges.compare.preset).toBe('preceding_period');
    expect(filters).toEqual([]);
  } finally {
    network.restore();
  }
});
