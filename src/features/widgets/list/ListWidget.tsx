import { HTMLTable, Icon } from '@blueprintjs/core';
import { useState } from 'react';
import { type Widget } from '../../../contracts/reports';
import { formatField } from '../../../engine/format';
import { useTableCompareQuery } from '../../../store/engineApi';
import { gatedWidget, type GatedViewProps, queryState } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { CompareCell } from '../table/TableWidget';
import { type WidgetProps } from '../types';
import { useSupersedeKey } from '../useWidgetData';
import { fieldLabel, fieldsOf, resultRows, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import { type ListOrderBy, type ListSort, listSortOf, sortListRows, toggledListSort } from './listOrder';

interface SortHeaderProps {
  column: ListOrderBy;
  label: string;
  sort: ListSort;
  onSort: (column: ListOrderBy) => void;
  numeric?: boolean;
}

/** A column header that sorts by its column, showing the current order to the eye and to screen readers. */
function SortHeader({ column, label, sort, onSort, numeric = false }: SortHeaderProps) {
  const active = sort.orderBy === column;
  return (
    <th
      className={numeric ? 'or-numeric' : undefined}
      aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="or-sort-button" onClick={() => onSort(column)}>
        {label}
        {active && <Icon icon={sort.order === 'asc' ? 'chevron-up' : 'chevron-down'} size={12} />}
      </button>
    </th>
  );
}

/**
 * The list's order and its toggle. A viewer who may not save still sorts for themselves; an editor's order is saved
 * with the widget.
 */
function useListSort(widget: Widget, onChange: WidgetProps['onChange']) {
  const [localSort, setLocalSort] = useState<ListSort | null>(null);
  const saved = listSortOf(widget.visualizationSettings?.display);
  const sort = onChange ? saved : (localSort ?? saved);
  const sortBy = (column: ListOrderBy) => {
    const next = toggledListSort(sort, column);
    setLocalSort(next);
    const settings = widget.visualizationSettings ?? {};
    onChange?.({
      ...widget,
      visualizationSettings: {
        ...settings,
        display: { ...settings.display, orderBy: next.orderBy, order: next.order },
      },
    });
  };
  return [sort, sortBy] as const;
}

function ListView({ widget, context, schema, version, onChange }: GatedViewProps) {
  const [dimension] = fieldsOf(schema, widget.dimension ? [widget.dimension] : widget.dimensions, 'dimension');
  const [metric] = fieldsOf(schema, widget.metrics, 'metric');
  const scope = widgetQueryScope(widget, context, schema);
  const supersedeKey = useSupersedeKey(widget.id);
  const ready = dimension !== undefined && metric !== undefined;
  const [sort, sortBy] = useListSort(widget, onChange);
  // The top N by the current period; ordering by the dimension re-sorts those N.
  const limit = widget.limit && widget.limit > 0 ? widget.limit : undefined;
  const result = useTableCompareQuery(
    {
      workspaceId: context.scope.workspaceId,
      query: {
        kind: 'tableCompare',
        ...scope,
        metrics: metric ? [metric.id] : [],
        dimensions: dimension ? [dimension.id] : [],
        limit,
      },
      version,
      supersedeKey,
      priority: useWidgetPriority(),
    },
    { skip: !ready },
  );
  if (!ready) {
    return (
      <WidgetEmpty title={widgetMessages.noDimensionOrMetric} description={widgetMessages.noDimensionOrMetricHelp} />
    );
  }
  const state = queryState(result);
  if (state || !result.currentData) return state;

  const rows = sortListRows(
    resultRows(result.currentData).map((row) => ({
      row,
      label: formatField(row[dimension.id], dimension, context.locale),
      value: typeof row[metric.id] === 'number' ? (row[metric.id] as number) : null,
    })),
    sort,
  );
  if (!rows.length) return <WidgetEmpty title={widgetMessages.noRows} />;

  return (
    <HTMLTable compact className="or-widget-table or-list-widget">
      <thead>
        <tr>
          <SortHeader column="dimension" label={fieldLabel(dimension)} sort={sort} onSort={sortBy} />
          <SortHeader column="currentPeriod" label={fieldLabel(metric)} sort={sort} onSort={sortBy} numeric />
        </tr>
      </thead>
      <tbody>
        {rows.map(({ row, label }, index) => (
          <tr key={index}>
            <td>{label}</td>
            <CompareCell
              field={metric}
              current={row[metric.id]}
              previous={row[`${metric.id}__compare`]}
              compared={scope.compare !== undefined}
              locale={context.locale}
            />
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/**
 * The top values of one dimension by a metric (limit 5, 10, 25 or all), ordered by the current period or
 * by the dimension; a changed order is saved through onChange with the widget (spec 2 §3, §9).
 */
export const ListWidget = gatedWidget(ListView);
