/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { act, useState } from 'react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { START_TIMEOUT_MS } from '../../../test/timeouts';
import { type DashboardConfig } from '../../contracts/reports';
import { DashboardView } from '../dashboard/DashboardView';
import { downloadSucceeded } from '../datasets/datasetsSlice';
import { editModeToggled } from '../reports/state/dashboardSlice';
import { startWidgetEngine, widgetSchema } from '../widgets/testing/widgetEngine';
import { FAILED_TO_UPDATE } from './TargetDrawer';

const key = 'dashboard/1';
const scope = { workspaceId: 1 };
let network: ReturnType<typeof stubNetwork>;
let saveStatus = 400;
const saved: { url: string; body: Record<string, unknown> }[] = [];

// The preview card's query runs in the real engine, on the fixture standing in for the send-date dataset.
beforeAll(() => startWidgetEngine(), START_TIMEOUT_MS);

beforeEach(() => {
  saveStatus = 400;
  saved.length = 0;
  network = stubNetwork(async (request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/flags')) return json({ data: [] });
    if (path === '/api/workspaces/1/targets') return json({ data: [] });
    if (request.method === 'PUT' && path.startsWith('/api/workspaces/1/targets/')) {
      const body = (await request.json()) as Record<string, unknown>;
      saved.push({ url: path, body });
      if (saveStatus !== 201) return json({ error: 'Unknown error' }, saveStatus);
      return json({ data: { ...body, id: path.split('/').pop(), workspaceId: 1 } }, 201);
    }
    return json({ error: 'Not found' }, 404);
  });
});
afterEach(() => network.restore());

function Harness({ changes }: { changes: DashboardConfig[] }) {
  const [config, setConfig] = useState<DashboardConfig>({ flags: ['grid_layout'], widgets: [] });
  return (
    <DashboardView
      reportKey={key}
      config={config}
      canEdit
      scope={scope}
      onConfigChange={(next) => {
        changes.push(next);
        setConfig(next);
      }}
    />
  );
}

function dropTile(label: string, onto: Element) {
  const data = new Map<string, string>();
  const transfer = { dropEffect: 'none', effectAllowed: 'all', setData: (t: string, v: string) => data.set(t, v) };
  fireEvent.dragStart(screen.getByRole('button', { name: label }), { dataTransfer: transfer });
  fireEvent.dragOver(onto, { dataTransfer: transfer });
  fireEvent.drop(onto, { dataTransfer: transfer });
}

test('a dropped Target tile opens the Target drawer; a failed save keeps the edit, a saved target joins the widget', async () => {
  const changes: DashboardConfig[] = [];
  const view = renderWithProviders(<Harness changes={changes} />);
  // The form's metrics come from the send-date dataset's schema, here already downloaded.
  act(() => {
    view.store.dispatch(editModeToggled({ key }));
    for (const dataset of ['campaign_metrics_by_send_date', widgetSchema.id]) {
      view.store.dispatch(
        downloadSucceeded({ key: `1/${dataset}`, version: '1:v1', schema: widgetSchema, fetchedAt: Date.now() }),
      );
    }
  });
  dropTile('Target', screen.getByText('Drag & Drop your first widget here'));
  const drawer = await waitFor(() => {
    const element = document.querySelector<HTMLElement>('.or-target-drawer');
    expect(element).not.toBeNull();
    return element!;
  });
  expect(within(drawer).getByRole('heading', { name: 'Target' })).toBeTruthy();
  expect(screen.queryByText('Configure widget')).toBeNull();
  const widgetId = changes[0].widgets[0].id;
  expect(changes[0].widgets[0]).toMatchObject({ type: 'target', targets: [], layout: { w: 5, h: 9 } });

  fireEvent.change(within(drawer).getByLabelText('Title'), { target: { value: 'March sends' } });
  fireEvent.change(within(drawer).getByLabelText('Metric'), { target: { value: 'sent' } });
  fireEvent.change(within(drawer).getByLabelText('Target'), { target: { value: '12.500,5' } });
  fireEvent.change(within(drawer).getByLabelText('Start date'), { target: { value: '2026-03-01' } });
  const preview = within(within(drawer).getByRole('complementary', { name: 'Preview' }));
  expect(await preview.findByRole('article', { name: 'Target March sends' })).toBeTruthy();
  fireEvent.change(within(drawer).getByLabelText('End date'), { target: { value: '2026-02-01' } });
  fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
  expect(await within(drawer).findByText('End date cannot be earlier than start date.')).toBeTruthy();
  expect(saved).toHaveLength(0);

  fireEvent.change(within(drawer).getByLabelText('End date'), { target: { value: '2026-03-31' } });
  fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
  await waitFor(() =>
    expect(view.store.getState().notifications.items.map((item) => item.message)).toContain(FAILED_TO_UPDATE),
  );
  expect(saved[0].body).toMatchObject({ title: 'March sends', metric: 'sent', target: 12500.5 });
  expect((within(drawer).getByLabelText('Title') as HTMLInputElement).value).toBe('March sends');

  // An open calculator is closed, and forgets its numbers, when the drawer closes.
  fireEvent.click(within(drawer).getByRole('button', { name: 'Target calculator' }));
  expect(Object.values(view.store.getState().targetCalculator ?? {})).toMatchObject([{ isOpen: true }]);
  saveStatus = 201;
  fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(changes.at(-1)?.widgets[0].targets).toHaveLength(1));
  const [targetId] = changes.at(-1)!.widgets[0].targets!;
  expect(changes.at(-1)!.widgets[0].id).toBe(widgetId);
  // The retry saved the same target: one id, from the first attempt on.
  expect(saved.map((call) => call.url)).toEqual([
    `/api/workspaces/1/targets/${targetId}`,
    `/api/workspaces/1/targets/${targetId}`,
  ]);
  await waitFor(() => expect(document.querySelector('.or-target-drawer')).toBeNull());
  expect(view.store.getState().targetCalculator).toEqual({});
});
