import {
  type EngagementRow,
  WAFFLE_CELLS,
  engagementPath,
  flowModel,
  integrationsOf,
  monthOptions,
  monthSteps,
  resolveEngagementRoute,
  waffleCellCounts,
  waffleCells,
} from './engagementModel';

describe('waffle cells', () => {
  it('sums to 1200 exactly, by largest remainder, for awkward sizes', () => {
    for (const sizes of [
      [1, 1, 1, 1, 1],
      [3, 3, 3, 0, 0],
      [123_457, 7, 99_999, 1, 31_337],
      [1, 0, 0, 0, 0],
      [2, 2, 2, 2, 2_000_003],
    ]) {
      expect(waffleCellCounts(sizes).reduce((a, b) => a + b, 0)).toBe(WAFFLE_CELLS);
    }
    // 1200 / 7 per share: 171.43 each for four segments of 1/7 and 514.29 for 3/7; floors leave 2 cells, which go
    // to the largest remainders (0.43 ×4, 0.29): the first two of the equal remainders.
    expect(waffleCellCounts([1, 1, 1, 1, 3])).toEqual([172, 172, 171, 171, 514]);
  });

  it('gives a segment of 0 no cell, an empty month no cells, and keeps the segment order', () => {
    expect(waffleCellCounts([0, 5, 0, 5, 0])).toEqual([0, 600, 0, 600, 0]);
    expect(waffleCellCounts([0, 0, 0, 0, 0])).toEqual([0, 0, 0, 0, 0]);
    const cells = waffleCells(waffleCellCounts([1, 2, 0, 1, 0]));
    expect(cells).toHaveLength(WAFFLE_CELLS);
    expect([cells[0], cells[299], cells[300], cells[899], cells[900], cells[1199]]).toEqual([0, 0, 1, 1, 3, 3]);
  });

  it('is stable: the same sizes always give the same cells, ties to the earlier segment', () => {
    expect(waffleCellCounts([1, 1, 1, 0, 0])).toEqual([400, 400, 400, 0, 0]);
    expect(waffleCellCounts([1, 1, 1, 1, 1, 1, 1])).toEqual([172, 172, 172, 171, 171, 171, 171]);
    expect(waffleCellCounts([5, 3, 9, 2, 1])).toEqual(waffleCellCounts([5, 3, 9, 2, 1]));
  });
});

const row = (segment: EngagementRow['segment_id'], flows: Partial<EngagementRow> = {}): EngagementRow => ({
  date: '2026-10-01',
  integration_id: 'int-1',
  integration_name: 'Klaviyo',
  segment_id: segment,
  segment_name: segment,
  size: 0,
  inflow_from_new: 0,
  inflow_from_highly_engaged: 0,
  inflow_from_engaged: 0,
  inflow_from_at_risk: 0,
  inflow_from_inactive: 0,
  inflow_new: 0,
  outflow_to_new: 0,
  outflow_to_highly_engaged: 0,
  outflow_to_engaged: 0,
  outflow_to_at_risk: 0,
  outflow_to_inactive: 0,
  outflow_gone: 0,
  ...flows,
});

describe('flow model', () => {
  it('lists where members came from and where last month’s went, in segment order, without zero flows', () => {
    const engaged = row('engaged', {
      size: 60,
      inflow_from_engaged: 40,
      inflow_from_highly_engaged: 15,
      inflow_new: 5,
      outflow_to_engaged: 40,
      outflow_to_at_risk: 12,
      outflow_gone: 3,
    });
    expect(flowModel(engaged)).toEqual({
      segmentId: 'engaged',
      inflow: [
        { from: 'highly_engaged', size: 15 },
        { from: 'engaged', size: 40 },
        { from: 'joined', size: 5 },
      ],
      outflow: [
        { to: 'engaged', size: 40 },
        { to: 'at_risk', size: 12 },
        { to: 'gone', size: 3 },
      ],
    });
  });

  it('is null without flows (the first month, or no row): the diagram says there is no comparison', () => {
    expect(flowModel(row('inactive', { size: 10 }))).toBeNull();
    expect(flowModel(undefined)).toBeNull();
  });
});

const integrations = integrationsOf([
  { integration_id: 'int-1', integration_name: 'Klaviyo', date: '2026-11-01' },
  { integration_id: 'int-1', integration_name: 'Klaviyo', date: '2026-09-01' },
  { integration_id: 'int-1', integration_name: 'Klaviyo', date: '2026-10-01' },
  { integration_id: 'int-2', integration_name: 'Spotler', date: '2026-08-01' },
  { integration_id: 'int-2', integration_name: 'Spotler', date: '2026-09-01' },
]);

describe('redirect rules', () => {
  it('collects each integration’s months, oldest first, in first-seen order', () => {
    expect(integrations).toEqual([
      { id: 'int-1', name: 'Klaviyo', dates: ['2026-09-01', '2026-10-01', '2026-11-01'] },
      { id: 'int-2', name: 'Spotler', dates: ['2026-08-01', '2026-09-01'] },
    ]);
  });

  it.each([
    [{}, 'redirect int-1 2026-11-01'],
    [{ integrationId: 'nope', date: '2026-09-01' }, 'redirect int-1 2026-11-01'],
    [{ integrationId: 'int-2' }, 'redirect int-2 2026-09-01'],
    [{ integrationId: 'int-2', date: '2026-11-01' }, 'redirect int-2 2026-09-01'],
    [{ integrationId: 'int-2', date: 'garbage' }, 'redirect int-2 2026-09-01'],
    [{ integrationId: 'int-2', date: '2026-08-01' }, 'show int-2 2026-08-01'],
    [{ integrationId: 'int-1', date: '2026-10-01' }, 'show int-1 2026-10-01'],
  ])('%p → %s', (params, expected) => {
    const route = resolveEngagementRoute(integrations, params);
    const outcome =
      route.kind === 'redirect'
        ? `redirect ${route.integrationId} ${route.date}`
        : route.kind === 'show'
          ? `show ${route.integration.id} ${route.date}`
          : route.kind;
    expect(outcome).toBe(expected);
  });

  it('is unavailable without engagement data', () => {
    expect(resolveEngagementRoute([], {})).toEqual({ kind: 'unavailable' });
    expect(resolveEngagementRoute(integrationsOf([]), { integrationId: 'int-1' })).toEqual({ kind: 'unavailable' });
  });
});

describe('route and month picker state', () => {
  it('writes the integration and month into the route', () => {
    expect(engagementPath(7, 'int-2', '2026-09-01')).toBe('/workspaces/7/engagement/int-2/2026-09-01');
    expect(engagementPath(7, 'a/b', '2026-09-01')).toBe('/workspaces/7/engagement/a%2Fb/2026-09-01');
  });

  it('offers the months newest first, labelled Jan to Dec, without the last (oldest) option', () => {
    const options = monthOptions(integrations[0].dates);
    expect(options).toEqual([
      { value: '2026-11-01', label: 'Nov 2026' },
      { value: '2026-10-01', label: 'Oct 2026' },
    ]);
    expect(monthOptions(['2026-01-01'])).toEqual([{ value: '2026-01-01', label: 'Jan 2026' }]);
  });

  it('steps to the older month with previous and the newer with next, nothing past either end', () => {
    const options = monthOptions(['2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01']);
    expect(options.map((option) => option.label)).toEqual(['Mar 2026', 'Feb 2026', 'Jan 2026']);
    expect(monthSteps(options, '2026-02-01')).toEqual({ previous: '2026-01-01', next: '2026-03-01' });
    expect(monthSteps(options, '2026-03-01')).toEqual({ previous: '2026-02-01', next: undefined });
    expect(monthSteps(options, '2026-01-01')).toEqual({ previous: undefined, next: '2026-02-01' });
  });
});
