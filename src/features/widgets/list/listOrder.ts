/** What a list widget orders by (spec 2 §9): the metric over the current period, or the dimension. */
export type ListOrderBy = 'currentPeriod' | 'dimension';
export type ListOrder = 'asc' | 'desc';

export interface ListSort {
  orderBy: ListOrderBy;
  order: ListOrder;
}

export const DEFAULT_LIST_SORT: ListSort = { orderBy: 'currentPeriod', order: 'desc' };

export function listSortOf(display: { orderBy?: string; order?: ListOrder } | undefined): ListSort {
  return {
    orderBy: display?.orderBy === 'dimension' ? 'dimension' : DEFAULT_LIST_SORT.orderBy,
    order: display?.order ?? DEFAULT_LIST_SORT.order,
  };
}

/** A click on a column header: the same column flips its order, a new column sorts descending first. */
export function toggledListSort(sort: ListSort, column: ListOrderBy): ListSort {
  if (sort.orderBy === column) return { orderBy: column, order: sort.order === 'asc' ? 'desc' : 'asc' };
  return { orderBy: column, order: 'desc' };
}

export interface ListRow {
  label: string;
  value: number | null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Rows in the chosen order; rows without a value stay last either way. */
export function sortListRows<T extends ListRow>(rows: readonly T[], sort: ListSort): T[] {
  const sign = sort.order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort.orderBy === 'dimension') return sign * collator.compare(a.label, b.label);
    if (a.value === null || b.value === null) return a.value === b.value ? 0 : a.value === null ? 1 : -1;
    return sign * (a.value - b.value);
  });
}
