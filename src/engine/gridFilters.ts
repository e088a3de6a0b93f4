import { z } from 'zod';
import { type FieldIndex } from './fields';
import { type Filter } from './filters';
import { QueryBuildError } from './sql';

/** Spec 2 "Explorer view screen": the numeric options of the grid's filter menu. */
export const numberFilterOptions = [
  'equals',
  'notEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
  'inRange',
] as const;
export const textFilterOptions = ['contains', 'notContains', 'equals', 'notEqual', 'startsWith', 'endsWith'] as const;
export const dateFilterOptions = ['equals', 'notEqual', 'greaterThan', 'lessThan', 'inRange'] as const;

const textFilter = z.strictObject({
  filterType: z.literal('text'),
  type: z.enum([...textFilterOptions, 'blank', 'notBlank']),
  filter: z.string().nullish(),
});
const numberFilter = z.strictObject({
  filterType: z.literal('number'),
  type: z.enum([...numberFilterOptions, 'blank', 'notBlank']),
  filter: z.number().nullish(),
  filterTo: z.number().nullish(),
});
const dateFilter = z.strictObject({
  filterType: z.literal('date'),
  type: z.enum([...dateFilterOptions, 'blank', 'notBlank']),
  /** yyyy-MM-dd (a time part, as older grids stored it, is dropped). */
  dateFrom: z.string().nullish(),
  dateTo: z.string().nullish(),
});
const setFilter = z.strictObject({ filterType: z.literal('set'), values: z.array(z.string().nullable()) });

/** One column's filter. Advanced models (conditions joined by AND/OR) are unsupported (spec 2 §5): strict objects. */
export const columnFilterSchema = z.discriminatedUnion('filterType', [textFilter, numberFilter, dateFilter, setFilter]);
export type ColumnFilter = z.infer<typeof columnFilterSchema>;
export const gridFilterModelSchema = z.record(z.string(), columnFilterSchema);
export type GridFilterModel = z.infer<typeof gridFilterModelSchema>;

const numberOperators = {
  equals: 'equals',
  notEqual: 'notEquals',
  greaterThan: 'gt',
  greaterThanOrEqual: 'gte',
  lessThan: 'lt',
  lessThanOrEqual: 'lte',
  inRange: 'inRange',
} as const;
const textOperators = {
  contains: 'contains',
  notContains: 'notContains',
  equals: 'equals',
  notEqual: 'notEquals',
  startsWith: 'startsWith',
  endsWith: 'endsWith',
} as const;

const day = (value: string | null | undefined): string => (value ?? '').slice(0, 10);

/** A condition no row meets: a value both set and not set. */
const nothing = (member: string): Filter => ({
  and: [
    { member, operator: 'set' },
    { member, operator: 'notSet' },
  ],
});

function columnFilters(member: string, filter: ColumnFilter, aggregate: boolean): Filter[] {
  const base = aggregate ? { member, aggregate } : { member };
  if (filter.filterType !== 'set' && (filter.type === 'blank' || filter.type === 'notBlank')) {
    return [{ ...base, operator: filter.type === 'blank' ? 'notSet' : 'set' }];
  }
  switch (filter.filterType) {
    case 'text':
      return [
        { ...base, operator: textOperators[filter.type as keyof typeof textOperators], values: [filter.filter ?? ''] },
      ];
    case 'number': {
      const values = [filter.filter, filter.filterTo].filter((v) => v !== null && v !== undefined).map(String);
      return [{ ...base, operator: numberOperators[filter.type as keyof typeof numberOperators], values }];
    }
    case 'date': {
      const from = day(filter.dateFrom);
      if (filter.type === 'greaterThan') return [{ ...base, operator: 'afterDate', values: [from] }];
      if (filter.type === 'lessThan') return [{ ...base, operator: 'beforeDate', values: [from] }];
      const to = filter.type === 'inRange' ? day(filter.dateTo) : from;
      const operator = filter.type === 'notEqual' ? 'notInDateRange' : 'inDateRange';
      return from ? [{ ...base, operator, values: [from, to] }] : [];
    }
    case 'set': {
      // A set filter with nothing chosen matches nothing (spec 2 §5).
      if (filter.values.length === 0) return [nothing(member)];
      const chosen = filter.values.filter((v): v is string => v !== null && v !== '');
      const parts: Filter[] = chosen.length ? [{ member, operator: 'equals', values: chosen }] : [];
      if (chosen.length < filter.values.length) parts.push({ member, operator: 'notSet' });
      return parts.length === 1 ? parts : [{ or: parts }];
    }
  }
}

/**
 * The engine filters of a grid filter model. Metric columns filter the grid's groups by their aggregated
 * value; dimension columns filter rows. A model the engine cannot read throws, so the grid can clear it.
 */
export function gridFilters(model: unknown, fields: FieldIndex): Filter[] {
  if (model === null || model === undefined) return [];
  const parsed = gridFilterModelSchema.safeParse(model);
  if (!parsed.success) throw new QueryBuildError('Unsupported grid filter model');
  return Object.entries(parsed.data).flatMap(([colId, filter]) => {
    const field = fields.require(colId);
    return columnFilters(colId, filter, field.type === 'metric');
  });
}

/** Whether a grid filter picks groups by a metric's aggregated value (HAVING) rather than rows (WHERE). */
export function isValueFilter(filter: Filter): boolean {
  return 'aggregate' in filter && filter.aggregate === true;
}
