import { type Field } from '../../../contracts/datasets';
import { type DayRange, type Granularity, type WeekStart, autoGranularity } from '../../../engine/dates';
import { type Cell, type ResultColumns } from '../../../store/engineApi';
import { seriesColor } from '../../charts/palettes';
import { type GraphModel, bucketAxis } from '../graphModel';
import { LIST_METRICS } from './defaults';

export const LIST_MEMBERS_FLAG = 'list_members';

export const SUBSCRIBER_TAB_CHART_HEIGHT = 220;
export const SUBSCRIBER_CARD_HEIGHT = 180;

export const subscriberMessages = {
  noList: 'No list selected',
  noListHint: 'Select a list in the configuration panel',
  unsupported: 'Subscriber widget is not supported for this workspace',
  fetchFailed: 'An error occurred while fetching the subscriber lists',
} as const;

export interface ListSummary {
  /** Members on the last day of the range with data; null when the list has none in the range. */
  members: number | null;
  in: number;
  out: number;
  delta: number;
}

export interface ListGrowth {
  list: string;
  summary: ListSummary;
  /** Members at the end of each bucket of the axis; null before the list's first data. */
  members: (number | null)[];
}

export interface SubscriberGrowthModel {
  axis: string[];
  granularity: Granularity;
  lists: ListGrowth[];
}

/** The bucket size of the members chart: the line chart's auto granularity for the range. */
export function subscriberGranularity(range: DayRange): Granularity {
  return autoGranularity(range, 'line');
}

const num = (cell: Cell | undefined): number | null =>
  typeof cell === 'number' && Number.isFinite(cell) ? cell : null;

/**
 * The chosen lists' growth over the main range from a subscriberGrowth result (period, list, bucket and
 * the list metrics), in the order they were chosen. Members is a snapshot: the summary takes the last
 * bucket's value (the list's last day), while ins, outs and deltas add up over the buckets.
 */
export function subscriberGrowthModel({
  result,
  lists,
  range,
  weekStart,
}: {
  result: ResultColumns;
  lists: string[];
  range: DayRange;
  weekStart: WeekStart;
}): SubscriberGrowthModel {
  const granularity = subscriberGranularity(range);
  const axis = bucketAxis(range, granularity, weekStart);
  const col = (name: string) => result.data[name] ?? [];
  const [periods, names, buckets] = [col('period'), col('list'), col('bucket')];
  const [members, ins, outs, deltas] = LIST_METRICS.map(col);
  return {
    axis,
    granularity,
    lists: lists.map((list) => {
      const byBucket = new Map<string, number | null>();
      const summary: ListSummary = { members: null, in: 0, out: 0, delta: 0 };
      let lastBucket = '';
      for (let row = 0; row < result.rowCount; row++) {
        if (periods[row] !== 'main' || names[row] !== list) continue;
        const bucket = String(buckets[row]);
        byBucket.set(bucket, num(members[row]));
        summary.in += num(ins[row]) ?? 0;
        summary.out += num(outs[row]) ?? 0;
        summary.delta += num(deltas[row]) ?? 0;
        if (bucket > lastBucket) {
          lastBucket = bucket;
          summary.members = num(members[row]);
        }
      }
      return { list, summary, members: axis.map((bucket) => byBucket.get(bucket) ?? null) };
    }),
  };
}

/** A list's members as a one-line graph, for the tab's chart and the card's. */
export function membersGraph(model: SubscriberGrowthModel, growth: ListGrowth, members: Field): GraphModel {
  return {
    axis: model.axis,
    granularity: model.granularity,
    series: [
      {
        id: growth.list,
        name: members.label ?? members.name,
        metric: members,
        period: 'main',
        values: growth.members,
        buckets: model.axis,
        color: seriesColor(0),
        group: growth.list,
      },
    ],
    settings: {
      chartType: 'line',
      groupMode: 'grouped',
      granularity: model.granularity,
      autoPercentAxis: true,
      // Growth is the story: the axis fits the members rather than starting at zero.
      autoScaleYAxis: true,
    },
    percentAxis: false,
    missing: [],
  };
}
