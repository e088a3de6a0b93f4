import { Card } from '@blueprintjs/core';
import { formatField } from '../../../engine/format';
import { useHighLowQuery } from '../../../store/engineApi';
import { gatedWidget, type GatedViewProps } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { useSupersedeKey } from '../useWidgetData';
import { fieldLabel, fieldsOf, resultRows, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, WidgetLoading, widgetMessages } from '../WidgetStates';

/** An engine failure thrown to the widget's error boundary, as the high_low widget does (spec 2 §8). */
class HighLowQueryError extends Error {
  override name = 'HighLowQueryError';
}

function HighLowView({ widget, context, schema, version }: GatedViewProps) {
  const metrics = fieldsOf(schema, widget.metrics, 'metric');
  const [dimension] = fieldsOf(schema, widget.dimension ? [widget.dimension] : widget.dimensions, 'dimension');
  const scope = widgetQueryScope(widget, context, schema);
  const supersedeKey = useSupersedeKey(widget.id);
  const ready = metrics.length > 0 && dimension !== undefined;
  const result = useHighLowQuery(
    {
      workspaceId: context.scope.workspaceId,
      query: {
        kind: 'highLow',
        ...scope,
        compare: undefined,
        metrics: metrics.map((m) => m.id),
        dimension: dimension?.id ?? '',
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
  if (result.isError) throw new HighLowQueryError((result.error as { message?: string } | undefined)?.message);
  if (!result.currentData) return <WidgetLoading />;
  const rows = resultRows(result.currentData);
  return (
    <div className="or-high-low">
      {metrics.map((metric) => {
        const row = rows.find((r) => r.metric === metric.id);
        return (
          <Card key={metric.id} className="or-high-low-card" aria-label={fieldLabel(metric)}>
            <h4 className="or-kpi-title">{fieldLabel(metric)}</h4>
            {row?.high_value === null || row?.high_value === undefined ? (
              <p className="or-muted">{widgetMessages.noData}</p>
            ) : (
              <dl>
                <dt>Highest</dt>
                <dd>
                  <span className="or-high-low-name">{formatField(row.high_value, dimension, context.locale)}</span>
                  <span className="or-high-low-value">{formatField(row.high, metric, context.locale)}</span>
                </dd>
                <dt>Lowest</dt>
                <dd>
                  <span className="or-high-low-name">{formatField(row.low_value, dimension, context.locale)}</span>
                  <span className="or-high-low-value">{formatField(row.low, metric, context.locale)}</span>
                </dd>
              </dl>
            )}
          </Card>
        );
      })}
    </div>
  );
}

/** Per metric, the dimension values with the highest and the lowest value over the main period. */
export const HighLowWidget = gatedWidget(HighLowView);
