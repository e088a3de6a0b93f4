import { HTMLTable } from '@blueprintjs/core';
import { type Field } from '../../../contracts/datasets';
import { changeTone, formatChange, formatField, relativeChange } from '../../../engine/format';
import { useTableCompareQuery } from '../../../store/engineApi';
import { gatedWidget, type GatedViewProps, queryState } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { type WidgetProps } from '../types';
import { useSupersedeKey } from '../useWidgetData';
import { fieldLabel, fieldsOf, resultRows, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import { TABLE_DEFAULT_METRICS } from './defaults';

/** One metric cell: the current value, the comparison value and the coloured change between them. */
export function CompareCell({
  field,
  current,
  previous,
  compared,
  locale,
}: {
  field: Field;
  current: unknown;
  previous: unknown;
  compared: boolean;
  locale: WidgetProps['context']['locale'];
}) {
  const change = relativeChange(current, previous);
  return (
    <td className="or-compare-cell">
      <span className="or-compare-value">{formatField(current, field, locale)}</span>
      {compared && (
        <>
          <span className="or-compare-previous">{formatField(previous, field, locale)}</span>
          <span className={`or-change or-change-${changeTone(change, field)}`}>{formatChange(change, locale)}</span>
        </>
      )}
    </td>
  );
}

function TableView({ widget, context, schema, version }: GatedViewProps) {
  const metrics = fieldsOf(schema, widget.metrics ?? TABLE_DEFAULT_METRICS, 'metric');
  const dimensions = fieldsOf(
    schema,
    widget.dimensions?.length ? widget.dimensions : widget.dimension ? [widget.dimension] : [],
    'dimension',
  );
  const scope = widgetQueryScope(widget, context, schema);
  const supersedeKey = useSupersedeKey(widget.id);
  const empty = metrics.length + dimensions.length === 0;
  const result = useTableCompareQuery(
    {
      workspaceId: context.scope.workspaceId,
      query: {
        kind: 'tableCompare',
        ...scope,
        metrics: metrics.map((m) => m.id),
        dimensions: dimensions.map((d) => d.id),
      },
      version,
      supersedeKey,
      priority: useWidgetPriority(),
    },
    { skip: empty },
  );
  if (empty) return <WidgetEmpty title={widgetMessages.tableNothingSelected} />;
  const state = queryState(result);
  if (state || !result.currentData) return state;
  const rows = resultRows(result.currentData);
  if (!rows.length) return <WidgetEmpty title={widgetMessages.noRows} />;
  const compared = scope.compare !== undefined;
  return (
    <HTMLTable compact striped className="or-widget-table">
      <thead>
        <tr>
          {dimensions.map((dimension) => (
            <th key={dimension.id}>{fieldLabel(dimension)}</th>
          ))}
          {metrics.map((metric) => (
            <th key={metric.id} className="or-numeric">
              {fieldLabel(metric)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={index}>
            {dimensions.map((dimension) => (
              <td key={dimension.id}>{formatField(row[dimension.id], dimension, context.locale)}</td>
            ))}
            {metrics.map((metric) => (
              <CompareCell
                key={metric.id}
                field={metric}
                current={row[metric.id]}
                previous={row[`${metric.id}__compare`]}
                compared={compared}
                locale={context.locale}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** Dimension rows and metric columns, the current period against the comparison (spec 2 §2, §5). */
export const TableWidget = gatedWidget(TableView);
