import { widgetTypes } from '../../contracts/reports';
import { paletteTypes, widgetDefinition, widgetLabel, widgetRegistry, widgetSizeOf } from './registry';

describe('the widget registry', () => {
  it.each(widgetTypes)('has an entry for %s, a kind of the contracts', (type) => {
    const definition = widgetRegistry[type];
    expect(definition).toBeDefined();
    expect(definition.label).not.toBe('');
    expect(definition.View).toBeTruthy();
    expect(widgetSizeOf({ type })?.default).toEqual(expect.objectContaining({ w: expect.any(Number) }));
  });

  it('has no entry for a kind the contracts do not list', () => {
    expect(Object.keys(widgetRegistry).sort()).toEqual([...widgetTypes].sort());
  });

  it('starts a new widget on its first display', () => {
    for (const type of widgetTypes) {
      const { defaults, displays } = widgetRegistry[type];
      if (!displays) continue;
      const display = widgetRegistry[type].displayOf?.(defaults) ?? defaults.visualizationSettings?.display?.type;
      expect([type, display]).toEqual([type, displays[0].value]);
    }
  });

  it('names kinds this version does not know by their type', () => {
    expect(widgetDefinition('pie_chart')).toBeUndefined();
    expect(widgetLabel('pie_chart')).toBe('Pie chart');
    expect(widgetLabel('high_low')).toBe('High & low');
  });
});

describe('the palette (spec 2 §2)', () => {
  it('offers subscriber growth only with the list_members feature, and targets everywhere', () => {
    expect(paletteTypes([])).toEqual(['campaign_performance', 'funnel', 'table', 'high_low', 'target']);
    expect(paletteTypes(['list_members'])).toEqual([
      'campaign_performance',
      'funnel',
      'table',
      'high_low',
      'subscriber_growth',
      'target',
    ]);
  });

  it('opens the Target drawer for a dropped Target tile, the configure drawer for the others', () => {
    expect(widgetRegistry.target.drawerOnAdd).toBe('target');
    const others = widgetTypes.filter((type) => type !== 'target');
    expect(others.map((type) => widgetRegistry[type].drawerOnAdd)).toEqual(others.map(() => undefined));
  });
});
