import { type DashboardConfig, type Widget } from '../../contracts/reports';
import {
  defaultSizeOf,
  gridCellAt,
  gridItemBox,
  gridItemOf,
  layoutChanged,
  listItemBox,
  migratedToGrid,
} from './layout';

describe('default widget sizes (spec 2 §9)', () => {
  it.each([
    [{ type: 'rich_text' }, 24, 4],
    [{ type: 'list' }, 12, 12],
    [{ type: 'campaign_performance', visualizationSettings: { display: { type: 'tab' } } }, 24, 17],
    [{ type: 'campaign_performance', visualizationSettings: { display: { type: 'grid' } } }, 6, 12],
    [{ type: 'campaign_performance', visualizationSettings: { display: { type: 'card' } } }, 6, 4],
    [{ type: 'target' }, 5, 9],
    [{ type: 'subscriber_growth', visualizationSettings: { display: { type: 'tab' } } }, 24, 18],
    [{ type: 'subscriber_growth', visualizationSettings: { display: { type: 'card' } } }, 6, 18],
    [{ type: 'funnel', visualizationSettings: { funnel: { direction: 'horizontal' } } }, 12, 11],
    [{ type: 'funnel', visualizationSettings: { funnel: { direction: 'vertical' } } }, 10, 16],
    [{ type: 'table' }, 24, 22],
    [{ type: 'high_low' }, 24, 9],
    [{ type: 'graph' }, 6, 26],
    [{ type: 'something_new' }, 6, 4],
  ] as Pick<Widget, 'type' | 'visualizationSettings'>[][])('%j is %i×%i', (widget, w, h) => {
    expect(defaultSizeOf(widget as Widget)).toEqual({ w, h });
  });
});

describe('grid items of widgets', () => {
  it('keeps a saved layout and adds the min and max fallbacks', () => {
    expect(gridItemOf({ id: 'a', type: 'table', layout: { x: 2, y: 5, w: 10, h: 20 } })).toEqual({
      i: 'a',
      x: 2,
      y: 5,
      w: 10,
      h: 20,
      minW: 3,
      minH: 3,
      maxH: 105,
    });
  });

  it('shows a widget without layout at 6×4 at the bottom', () => {
    expect(gridItemOf({ id: 'a', type: 'table' })).toMatchObject({ x: 0, y: Infinity, w: 6, h: 4 });
  });

  it('keeps saved minimums and maximums', () => {
    expect(
      gridItemOf({ id: 'a', type: 'table', layout: { x: 0, y: 0, w: 2, h: 2, minW: 4, minH: 5, maxW: 12, maxH: 40 } }),
    ).toMatchObject({ w: 4, h: 5, minW: 4, minH: 5, maxW: 12, maxH: 40 });
  });
});

describe('layoutChanged', () => {
  const config: DashboardConfig = {
    widgets: [
      { id: 'a', type: 'table', layout: { x: 0, y: 0, w: 24, h: 22, minW: 6 } },
      { id: 'b', type: 'funnel', layout: { x: 0, y: 22, w: 12, h: 11 } },
    ],
  };

  it('saves positions and sizes, keeping the other layout fields', () => {
    const next = layoutChanged(config, [
      { i: 'a', x: 0, y: 11, w: 20, h: 22 },
      { i: 'b', x: 4, y: 0, w: 12, h: 11 },
    ]);
    expect(next.widgets.map((widget) => widget.layout)).toEqual([
      { x: 0, y: 11, w: 20, h: 22, minW: 6 },
      { x: 4, y: 0, w: 12, h: 11 },
    ]);
  });

  it('saves an item without a usable size at 24×4', () => {
    const next = layoutChanged({ widgets: [{ id: 'a', type: 'table' }] }, [{ i: 'a', x: 1, y: 2, w: 0 }]);
    expect(next.widgets[0].layout).toEqual({ x: 1, y: 2, w: 24, h: 4 });
  });

  it('returns the same config when nothing moved, so a click is no edit', () => {
    expect(
      layoutChanged(config, [
        { i: 'a', x: 0, y: 0, w: 24, h: 22 },
        { i: 'b', x: 0, y: 22, w: 12, h: 11 },
      ]),
    ).toBe(config);
  });

  it('leaves widgets missing from the layout as they were', () => {
    const next = layoutChanged(config, [{ i: 'b', x: 12, y: 0, w: 12, h: 11 }]);
    expect(next.widgets[0]).toBe(config.widgets[0]);
    expect(next.widgets[1].layout).toEqual({ x: 12, y: 0, w: 12, h: 11 });
  });
});

describe('drop spots on the grid', () => {
  // 24 columns of 40 px with 16 px margins around each: 24 × 40 + 25 × 16 = 1360 px.
  const width = 1360;

  it('finds the cell under the pointer', () => {
    expect(gridCellAt(16 + 3 * 56 + 5, 16 + 4 * 24 + 5, width, 6)).toEqual({ x: 3, y: 4 });
  });

  it('keeps the dropped item inside the columns and below the top', () => {
    expect(gridCellAt(1350, 0, width, 12)).toEqual({ x: 12, y: 0 });
    expect(gridCellAt(-30, -30, width, 6)).toEqual({ x: 0, y: 0 });
  });

  it('draws an item where react-grid-layout puts it', () => {
    expect(gridItemBox({ x: 1, y: 2, w: 2, h: 3 }, width)).toEqual({
      left: 72,
      top: 64,
      width: 96,
      height: 56,
    });
  });
});

describe("'Migrate': a list dashboard onto the grid", () => {
  const listed = (id: string, type: string): Widget => ({ id, type });

  it('turns grid_layout on in the form the flags have, keeping the others', () => {
    expect(migratedToGrid({ widgets: [] }).flags).toEqual(['grid_layout']);
    expect(migratedToGrid({ widgets: [], flags: ['x'] }).flags).toEqual(['x', 'grid_layout']);
    expect(migratedToGrid({ widgets: [], flags: { x: true, grid_layout: false } }).flags).toEqual({
      x: true,
      grid_layout: true,
    });
  });

  it('places the widgets in reading order at their default sizes, wrapping into rows', () => {
    const config: DashboardConfig = {
      widgets: [listed('a', 'graph'), listed('b', 'graph'), listed('c', 'table'), listed('d', 'graph')],
    };
    const migrated = migratedToGrid(config);
    // graph 6x26 and table 24x22 (spec 2 §9 sizes).
    expect(migrated.widgets.map((widget) => [widget.id, widget.layout])).toEqual([
      ['a', { x: 0, y: 0, w: 6, h: 26 }],
      ['b', { x: 6, y: 0, w: 6, h: 26 }],
      ['c', { x: 0, y: 26, w: 24, h: 22 }],
      ['d', { x: 0, y: 48, w: 6, h: 26 }],
    ]);
    expect(config.widgets[0].layout).toBeUndefined();
  });
});

describe('the list layout of dashboards without the grid flag', () => {
  test('a table is 427 px high unless it sets its own height; others keep their default rows', () => {
    expect(listItemBox({ type: 'table' })).toEqual({ span: 12, height: 427 });
    expect(listItemBox({ type: 'table', height: 250 }).height).toBe(250);
    // A graph is 26 rows of 8 px with 25 gaps of 16 px.
    expect(listItemBox({ type: 'graph' })).toEqual({ span: 3, height: 26 * 8 + 25 * 16 });
  });

  test('a widget spans half its 24-column width of the 12 columns, at least one', () => {
    expect(listItemBox({ type: 'rich_text' }).span).toBe(12);
    expect(listItemBox({ type: 'list' }).span).toBe(6);
    // The target card is 5 wide: it rounds up to 3 of 12 rather than shrink.
    expect(listItemBox({ type: 'target' }).span).toBe(3);
  });
});
