/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { Classes } from '@blueprintjs/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { type DashboardConfig } from '../../contracts/reports';
import { editModeToggled, selectSelectedWidget } from '../reports/state/dashboardSlice';
import { workspacesApi } from '../workspaces/workspacesApi';
import { DashboardView } from './DashboardView';
import { PALETTE_DRAG_TYPE } from './EditingDrawer';

const key = 'dashboard/1';
const scope = { workspaceId: 1 };
let network: ReturnType<typeof stubNetwork>;
let flags: string[] = [];

beforeEach(() => {
  flags = [];
  network = stubNetwork((request) =>
    request.url.endsWith('/flags') ? json({ data: flags }) : json({ error: 'Not found' }, 404),
  );
});
afterEach(() => network.restore());

/** The canvas with its config kept as a report page keeps it: every local change replaces it. */
function Harness({ initial, canEdit, changes }: { initial: unknown; canEdit: boolean; changes: DashboardConfig[] }) {
  const [config, setConfig] = useState(initial as DashboardConfig);
  return (
    <DashboardView
      reportKey={key}
      config={config}
      canEdit={canEdit}
      scope={scope}
      onConfigChange={(next) => {
        changes.push(next);
        setConfig(next);
      }}
    />
  );
}

function renderDashboard(initial: unknown, { canEdit = true, editMode = false } = {}) {
  const changes: DashboardConfig[] = [];
  const view = renderWithProviders(<Harness initial={initial} canEdit={canEdit} changes={changes} />);
  if (editMode) act(() => void view.store.dispatch(editModeToggled({ key })));
  return { ...view, changes };
}

/** A drag data carrier as browsers give one to drag events. */
function dataTransfer() {
  const data = new Map<string, string>();
  return {
    data,
    dropEffect: 'none',
    effectAllowed: 'all',
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    types: [] as string[],
  };
}

function dragTile(label: string, onto: Element) {
  const transfer = dataTransfer();
  fireEvent.dragStart(screen.getByRole('button', { name: label }), { dataTransfer: transfer });
  fireEvent.dragOver(onto, { dataTransfer: transfer });
  fireEvent.drop(onto, { dataTransfer: transfer });
  return transfer;
}

const table = (id: string, y: number) => ({ id, type: 'table', title: id, layout: { x: 0, y, w: 24, h: 10 } });
const gridConfig = { flags: ['grid_layout'], widgets: [table('Sales', 0), table('Costs', 10)] };

describe('dashboard canvas', () => {
  it("shows 'Invalid dashboard configuration' for a config that is not a dashboard's", () => {
    renderDashboard({ widgets: 'nope' });
    expect(screen.getByText('Invalid dashboard configuration')).toBeTruthy();
  });

  it('shows the empty canvas messages, the palette only in edit mode', () => {
    const view = renderDashboard({ widgets: [] });
    expect(screen.getByText('Drop widgets here')).toBeTruthy();
    expect(screen.queryByText('Drag & drop widget(s) into the dashboard')).toBeNull();
    act(() => void view.store.dispatch(editModeToggled({ key })));
    expect(screen.getByText('Drag & Drop your first widget here')).toBeTruthy();
    expect(screen.getByText('Drag & drop widget(s) into the dashboard')).toBeTruthy();
  });

  it('offers no graph, list or text in the palette, and subscriber growth only with list_members', async () => {
    const first = renderDashboard({ widgets: [] }, { editMode: true });
    // The palette is judged once the workspace's flags have arrived, not before.
    await waitFor(() =>
      expect(workspacesApi.endpoints.getWorkspaceFlags.select(scope.workspaceId)(first.store.getState()).data).toEqual(
        [],
      ),
    );
    const palette = () => within(screen.getByRole('complementary', { name: 'Editing drawer' }));
    expect(palette().getByRole('button', { name: 'Funnel' })).toBeTruthy();
    for (const absent of ['Graph', 'List', 'Text', 'Subscriber growth']) {
      expect(palette().queryByRole('button', { name: absent })).toBeNull();
    }
    first.unmount();
    flags = ['list_members'];
    renderDashboard({ widgets: [] }, { editMode: true });
    expect(await screen.findByRole('button', { name: 'Subscriber growth' })).toBeTruthy();
  });

  it('needs write access for edit mode', () => {
    renderDashboard(gridConfig, { canEdit: false, editMode: true });
    expect(screen.queryByRole('complementary', { name: 'Editing drawer' })).toBeNull();
    fireEvent.click(screen.getByRole('region', { name: 'Sales' }));
    expect(screen.getByRole('region', { name: 'Sales' }).getAttribute('aria-selected')).toBeNull();
  });

  it('drops a palette tile: adds the widget, saves locally, selects it and opens the configure drawer', () => {
    const view = renderDashboard({ flags: ['grid_layout'], widgets: [] }, { editMode: true });
    dragTile('Funnel', screen.getByText('Drag & Drop your first widget here'));
    expect(view.changes).toHaveLength(1);
    const [added] = view.changes[0].widgets;
    expect(added).toMatchObject({ type: 'funnel', conversionMetric: 'transactions', layout: { w: 12, h: 11 } });
    expect(selectSelectedWidget(view.store.getState(), key)).toBe(added.id);
    expect(screen.getByRole('region', { name: 'Funnel' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Configure widget')).toBeTruthy();
  });

  it('drops a tile on the line next to a widget', () => {
    const view = renderDashboard(gridConfig, { editMode: true });
    // jsdom has no layout: every point is in the lower half of a widget, so on its line below.
    dragTile('Table', screen.getByRole('region', { name: 'Sales' }));
    expect(view.changes[0].widgets.map((widget) => widget.title ?? widget.type)).toEqual(['Sales', 'table', 'Costs']);
  });

  it('ignores drags that did not start in the palette', () => {
    const view = renderDashboard(gridConfig, { editMode: true });
    const transfer = dataTransfer();
    transfer.setData(PALETTE_DRAG_TYPE, 'funnel');
    fireEvent.drop(screen.getByRole('region', { name: 'Sales' }), { dataTransfer: transfer });
    expect(view.changes).toHaveLength(0);
  });

  it('selects a widget in edit mode and clears the selection on a click outside', () => {
    const view = renderDashboard(gridConfig, { editMode: true });
    fireEvent.click(screen.getByRole('region', { name: 'Costs' }));
    expect(selectSelectedWidget(view.store.getState(), key)).toBe('Costs');
    // The editing drawer shows the selected widget's settings instead of the palette.
    expect(screen.getByRole('button', { name: 'Configure' })).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('region', { name: 'Sales' }));
    expect(selectSelectedWidget(view.store.getState(), key)).toBe('Costs');
    fireEvent.mouseDown(document.body);
    expect(selectSelectedWidget(view.store.getState(), key)).toBeNull();
  });

  it('clears the selection when the selected widget is removed', () => {
    const view = renderDashboard(gridConfig, { editMode: true });
    fireEvent.click(screen.getByRole('region', { name: 'Costs' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(view.changes.at(-1)?.widgets.map((widget) => widget.id)).toEqual(['Sales']);
    expect(selectSelectedWidget(view.store.getState(), key)).toBeNull();
  });

  it("duplicates a widget with ' (copy)' from the editing drawer", () => {
    const view = renderDashboard(gridConfig, { editMode: true });
    fireEvent.click(screen.getByRole('region', { name: 'Sales' }));
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate' }));
    expect(view.changes.at(-1)?.widgets.map((widget) => widget.title)).toEqual(['Sales', 'Sales (copy)', 'Costs']);
  });

  it('reorders the widgets of a list dashboard by dragging', () => {
    const view = renderDashboard({ widgets: [table('A', 0), table('B', 10), table('C', 20)] }, { editMode: true });
    const transfer = dataTransfer();
    const header = screen.getByRole('region', { name: 'A' }).querySelector('header') as HTMLElement;
    fireEvent.dragStart(header, { dataTransfer: transfer });
    fireEvent.dragOver(screen.getByRole('region', { name: 'C' }), { dataTransfer: transfer });
    fireEvent.drop(screen.getByRole('region', { name: 'C' }), { dataTransfer: transfer });
    expect(view.changes.at(-1)?.widgets.map((widget) => widget.id)).toEqual(['B', 'C', 'A']);
  });

  it('shows global filter chips, removable only in edit mode', () => {
    const config = {
      ...gridConfig,
      filters: [
        { member: 'campaign_name', operator: 'contains', values: ['sale', 'promo'] },
        { member: 'list_name', operator: 'set' },
      ],
    };
    const view = renderDashboard(config);
    const bar = () => within(screen.getByRole('toolbar', { name: 'Dashboard filters' }));
    expect(bar().getByText('campaign_name Contains sale, promo')).toBeTruthy();
    expect(bar().getByText('list_name Is not empty')).toBeTruthy();
    expect(bar().queryAllByRole('button', { name: /remove/i })).toHaveLength(0);
    act(() => void view.store.dispatch(editModeToggled({ key })));
    fireEvent.click(bar().getAllByRole('button', { name: /remove/i })[0]);
    expect(view.changes.at(-1)?.filters).toEqual([{ member: 'list_name', operator: 'set' }]);
  });
});

describe('widget menu', () => {
  const config = {
    flags: ['grid_layout'],
    widgets: [{ id: 'k', type: 'campaign_performance', title: 'KPIs' }, table('Sales', 20)],
  };

  it('offers the kpi drawer for KPI overviews only, also outside edit mode', () => {
    renderDashboard(config, { canEdit: false });
    // Outside edit mode a table has nothing in its menu, so no menu.
    expect(
      within(screen.getByRole('region', { name: 'Sales' })).queryByRole('button', { name: 'Widget menu' }),
    ).toBeNull();
    fireEvent.click(within(screen.getByRole('region', { name: 'KPIs' })).getByRole('button', { name: 'Widget menu' }));
    expect(screen.queryByRole('menuitem', { name: 'Remove' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Open in kpi drawer' }));
    // The card's own title and the drawer's.
    expect(screen.getAllByRole('heading', { name: 'KPIs' })).toHaveLength(2);
    expect(document.querySelector(`.${Classes.DRAWER}`)).not.toBeNull();
  });

  it('configures, duplicates and removes in edit mode', () => {
    const view = renderDashboard(config, { editMode: true });
    const menu = () =>
      fireEvent.click(
        within(screen.getByRole('region', { name: 'Sales' })).getByRole('button', { name: 'Widget menu' }),
      );
    menu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Duplicate' }));
    expect(view.changes.at(-1)?.widgets.map((widget) => widget.title)).toEqual(['KPIs', 'Sales', 'Sales (copy)']);
    menu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Configure' }));
    expect(screen.getByText('Configure widget')).toBeTruthy();
  });
});
