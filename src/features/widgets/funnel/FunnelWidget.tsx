import { type Field } from '../../../contracts/datasets';
import { changeTone, formatChange, formatField, formatValue, relativeChange } from '../../../engine/format';
import { useFunnelQuery } from '../../../store/engineApi';
import { gatedWidget, type GatedViewProps, queryState } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { useSupersedeKey } from '../useWidgetData';
import { fieldLabel, fieldsOf, resultRows, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import { DEFAULT_CONVERSION_METRIC, FUNNEL_DEFAULT_METRICS } from './defaults';

/** The funnel palette: 10 colours, one per step (spec 2 §9). */
export const FUNNEL_COLOURS = [
  '#2d72d2',
  '#238551',
  '#c87619',
  '#cd4246',
  '#7961db',
  '#147eb3',
  '#29a634',
  '#d1980b',
  '#d33d17',
  '#9d3f9d',
];

export interface FunnelStep {
  field: Field;
  value: number | null;
  /** The step's value as a share of the first step's. */
  share: number | null;
}

export interface FunnelModel {
  steps: FunnelStep[];
  conversion: Field;
  /** The conversion metric over the first step: the funnel's conversion rate. */
  rate: number | null;
  previousRate: number | null;
}

const asNumber = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The funnel's steps and conversion rate from the funnel query's rows (one per period). */
export function funnelModel(steps: Field[], conversion: Field, rows: Record<string, unknown>[]): FunnelModel {
  const main = rows.find((row) => row.period === 'main');
  const previous = rows.find((row) => row.period === 'compare');
  const first = asNumber(main?.[steps[0].id]);
  const rateOf = (row: Record<string, unknown> | undefined) => {
    const top = asNumber(row?.[steps[0].id]);
    const converted = asNumber(row?.[conversion.id]);
    return top && converted !== null ? converted / top : null;
  };
  return {
    steps: steps.map((field) => {
      const value = asNumber(main?.[field.id]);
      return { field, value, share: first && value !== null ? value / first : null };
    }),
    conversion,
    rate: rateOf(main),
    previousRate: previous ? rateOf(previous) : null,
  };
}

function FunnelView({ widget, context, schema, version }: GatedViewProps) {
  const { locale } = context;
  const steps = fieldsOf(schema, widget.funnelMetrics ?? widget.metrics ?? FUNNEL_DEFAULT_METRICS, 'metric');
  const [conversion = steps.at(-1)] = fieldsOf(
    schema,
    [widget.conversionMetric ?? DEFAULT_CONVERSION_METRIC],
    'metric',
  );
  const scope = widgetQueryScope(widget, context, schema);
  const supersedeKey = useSupersedeKey(widget.id);
  const metrics = [...new Set([...steps, ...(conversion ? [conversion] : [])].map((field) => field.id))];
  const result = useFunnelQuery(
    {
      workspaceId: context.scope.workspaceId,
      query: { kind: 'funnel', ...scope, metrics },
      version,
      supersedeKey,
      priority: useWidgetPriority(),
    },
    { skip: steps.length === 0 },
  );
  if (!steps.length || !conversion) {
    return <WidgetEmpty title={widgetMessages.noMetric} description={widgetMessages.noMetricHelp} />;
  }
  const state = queryState(result);
  if (state || !result.currentData) return state;
  const model = funnelModel(steps, conversion, resultRows(result.currentData));
  const vertical = widget.visualizationSettings?.funnel?.direction === 'vertical';
  const change = relativeChange(model.rate, model.previousRate);
  return (
    <div className={`or-funnel ${vertical ? 'or-funnel-vertical' : 'or-funnel-horizontal'}`}>
      <div className="or-funnel-rate" aria-label="Conversion rate">
        <span className="or-muted">Conversion rate ({fieldLabel(conversion)})</span>
        <strong className="or-funnel-rate-value">{formatValue(model.rate, 'percent', locale)}</strong>
        {scope.compare && (
          <span className={`or-change or-change-${changeTone(change, conversion)}`}>
            {formatChange(change, locale)}
          </span>
        )}
      </div>
      <ol className="or-funnel-steps">
        {model.steps.map((step, index) => {
          const size = `${Math.max(0, Math.min(1, step.share ?? 0)) * 100}%`;
          return (
            <li key={step.field.id} className="or-funnel-step" aria-label={fieldLabel(step.field)}>
              <span className="or-funnel-label">{fieldLabel(step.field)}</span>
              <span className="or-funnel-track">
                <span
                  className="or-funnel-bar"
                  style={{
                    background: FUNNEL_COLOURS[index % FUNNEL_COLOURS.length],
                    ...(vertical ? { height: size } : { width: size }),
                  }}
                />
              </span>
              <span className="or-funnel-value">{formatField(step.value, step.field, locale)}</span>
              <span className="or-funnel-share">{formatValue(step.share, 'percent', locale)}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** Horizontal or vertical funnel bars of the chosen metrics and the conversion rate (spec 2 §2, §5). */
export const FunnelWidget = gatedWidget(FunnelView);
