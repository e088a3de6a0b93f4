import { type DashboardConfig, type Widget } from '../../contracts/reports';
import {
  addWidgetAt,
  createWidget,
  duplicateWidget,
  globalFilterRemoved,
  globalFiltersChanged,
  removeWidget,
  sortWidgets,
  widgetChanged,
} from './configEdits';

const widget = (id: string, y: number, h = 10, extra: Partial<Widget> = {}): Widget => ({
  id,
  type: 'table',
  title: id.toUpperCase(),
  layout: { x: 0, y, w: 24, h },
  ...extra,
});
const config: DashboardConfig = { title: 'Sales', widgets: [widget('a', 0), widget('b', 10), widget('c', 20)] };
const ids = (next: DashboardConfig) => next.widgets.map((item) => item.id);

describe('createWidget (spec 2 §9 defaults)', () => {
  it('starts a funnel with its default metrics, conversion metric and size', () => {
    expect(createWidget('funnel', 'n')).toMatchObject({
      id: 'n',
      type: 'funnel',
      dataset: 'campaign_metrics_by_send_date',
      metrics: ['sent_unique', 'sent', 'delivered', 'open', 'opens', 'clicks_unique', 'transactions'],
      conversionMetric: 'transactions',
      visualizationSettings: { funnel: { direction: 'horizontal' } },
      layout: { x: 0, y: 0, w: 12, h: 11 },
    });
  });

  it('starts a KPI overview with its metrics as tabs', () => {
    expect(createWidget('campaign_performance', 'n')).toMatchObject({
      metrics: ['sent_unique', 'sent', 'open_rate', 'click_to_open_rate', 'cto_unique', 'sessions', 'revenue'],
      visualizationSettings: { display: { type: 'tab' } },
      layout: { w: 24, h: 17 },
    });
  });

  it('starts a table with its default metrics', () => {
    expect(createWidget('table', 'n')).toMatchObject({
      metrics: ['sent_unique', 'sent', 'open', 'opens', 'clicks_unique', 'transactions'],
      layout: { w: 24, h: 22 },
    });
  });

  it('starts subscriber growth on list_members as tabs', () => {
    expect(createWidget('subscriber_growth', 'n')).toMatchObject({
      dataset: 'list_members',
      layout: { w: 24, h: 18 },
    });
  });

  it('gives every new widget its own id', () => {
    expect(createWidget('table').id).not.toBe(createWidget('table').id);
  });
});

describe('addWidgetAt (the palette add action)', () => {
  it('adds before a reference widget, at its row', () => {
    const { config: next, widget: added } = addWidgetAt(config, 'high_low', { before: 'b' }, 'n');
    expect(ids(next)).toEqual(['a', 'n', 'b', 'c']);
    expect(added.layout).toEqual({ x: 0, y: 10, w: 24, h: 9 });
  });

  it('adds after a reference widget, right below it', () => {
    const { config: next, widget: added } = addWidgetAt(config, 'high_low', { after: 'c' }, 'n');
    expect(ids(next)).toEqual(['a', 'b', 'c', 'n']);
    expect(added.layout).toMatchObject({ y: 30 });
  });

  it('adds at a grid spot, in reading order', () => {
    const { config: next, widget: added } = addWidgetAt(config, 'funnel', { x: 6, y: 12 }, 'n');
    expect(ids(next)).toEqual(['a', 'b', 'n', 'c']);
    expect(added.layout).toEqual({ x: 6, y: 12, w: 12, h: 11 });
  });

  it('adds at the bottom without a target or with an unknown reference', () => {
    expect(addWidgetAt(config, 'table', undefined, 'n').widget.layout).toMatchObject({ x: 0, y: 30 });
    expect(ids(addWidgetAt(config, 'table', { before: 'gone' }, 'n').config)).toEqual(['a', 'b', 'c', 'n']);
  });

  it('adds the first widget of an empty dashboard at the top', () => {
    const { config: next } = addWidgetAt({ widgets: [] }, 'table', undefined, 'n');
    expect(next.widgets[0].layout).toEqual({ x: 0, y: 0, w: 24, h: 22 });
  });

  it('leaves the original config untouched', () => {
    addWidgetAt(config, 'table', { before: 'a' }, 'n');
    expect(ids(config)).toEqual(['a', 'b', 'c']);
  });
});

describe('sortWidgets (the sort action)', () => {
  it('moves a widget before or after another', () => {
    expect(ids(sortWidgets(config, 'c', { before: 'a' }))).toEqual(['c', 'a', 'b']);
    expect(ids(sortWidgets(config, 'a', { after: 'b' }))).toEqual(['b', 'a', 'c']);
  });

  it('ignores unknown widgets and moving onto itself', () => {
    expect(sortWidgets(config, 'x', { before: 'a' })).toBe(config);
    expect(sortWidgets(config, 'a', { before: 'x' })).toBe(config);
    expect(sortWidgets(config, 'a', { after: 'a' })).toBe(config);
  });
});

describe('duplicateWidget', () => {
  const label = (item: Widget) => item.title ?? 'Table';

  it("adds a copy with ' (copy)' right below the original", () => {
    const { config: next, widget: copy } = duplicateWidget(config, 'a', label, 'n');
    expect(ids(next)).toEqual(['a', 'n', 'b', 'c']);
    expect(copy).toMatchObject({ id: 'n', type: 'table', title: 'A (copy)', layout: { x: 0, y: 10, w: 24, h: 10 } });
  });

  it('names an untitled copy after its type', () => {
    const untitled = { widgets: [{ id: 'a', type: 'table' }] };
    expect(duplicateWidget(untitled, 'a', label, 'n').widget.title).toBe('Table (copy)');
  });

  it('copies deeply, so editing the copy leaves the original alone', () => {
    const withMetrics = { widgets: [widget('a', 0, 10, { metrics: ['sent'] })] };
    const { widget: copy } = duplicateWidget(withMetrics, 'a', label, 'n');
    copy.metrics?.push('open');
    expect(withMetrics.widgets[0].metrics).toEqual(['sent']);
  });

  it("refuses a missing widget with 'Widget not found.'", () => {
    expect(() => duplicateWidget(config, 'gone', label, 'n')).toThrow('Widget not found.');
  });
});

describe('removeWidget and widgetChanged', () => {
  it('removes a widget', () => {
    expect(ids(removeWidget(config, 'b'))).toEqual(['a', 'c']);
    expect(removeWidget(config, 'gone')).toBe(config);
  });

  it('replaces a changed widget in place and does not bring back a removed one', () => {
    const next = widgetChanged(config, { ...config.widgets[1], title: 'Renamed' });
    expect(next.widgets.map((item) => item.title)).toEqual(['A', 'Renamed', 'C']);
    expect(widgetChanged(config, widget('gone', 0))).toBe(config);
  });
});

describe('global filters', () => {
  const filter = { member: 'campaign_name', operator: 'contains', values: ['sale'] };

  it('sets the filters and removes one chip', () => {
    const other = { member: 'list_name', operator: 'set' };
    const set = globalFiltersChanged(config, [filter, other]);
    expect(set.filters).toEqual([filter, other]);
    expect(globalFilterRemoved(set, 0).filters).toEqual([other]);
    expect(globalFilterRemoved(set, 3)).toBe(set);
  });
});
