import { Card } from '@blueprintjs/core';
import { type JSX, useState } from 'react';
import { type Locale } from '../../../contracts/common';
import { changeTone, formatChange, formatField, relativeChange } from '../../../engine/format';
import { useFunnelQuery, useTimeSeriesQuery } from '../../../store/engineApi';
import { gatedWidget, type GatedViewProps, queryState } from '../DatasetGate';
import { useWidgetPriority } from '../queryPriority';
import { useSupersedeKey } from '../useWidgetData';
import { fieldLabel, widgetQueryScope } from '../widgetQuery';
import { WidgetEmpty, widgetMessages } from '../WidgetStates';
import { KPI_DEFAULT_METRICS } from './defaults';
import { type KpiCardModel, kpiCards } from './kpiModel';
import { Sparkline } from './Sparkline';

/** Tab view chart height (spec 2 §9: tabs 220). */
const TAB_CHART_HEIGHT = 220;

export type KpiDisplay = 'tab' | 'grid' | 'card';

export function kpiDisplayOf(type: string | undefined): KpiDisplay {
  return type === 'grid' || type === 'card' ? type : 'tab';
}

interface KpiSummaryProps {
  card: KpiCardModel;
  locale: Locale;
  compared: boolean;
}

/** A card's title, value and change against the comparison period. */
function KpiSummary({ card, locale, compared }: KpiSummaryProps) {
  if (!card.field) {
    return (
      <>
        <h4 className="or-kpi-title">{card.id}</h4>
        <p className="or-muted">{widgetMessages.metricNotFound}</p>
      </>
    );
  }
  const change = relativeChange(card.value, card.previous);
  return (
    <>
      <h4 className="or-kpi-title">{fieldLabel(card.field)}</h4>
      <div className="or-kpi-value">{formatField(card.value, card.field, locale)}</div>
      {compared && (
        <div className="or-kpi-compare">
          <span className={`or-change or-change-${changeTone(change, card.field)}`}>
            {formatChange(change, locale)}
          </span>
          <span className="or-muted"> vs {formatField(card.previous, card.field, locale)}</span>
        </div>
      )}
    </>
  );
}

const tone = (card: KpiCardModel) => changeTone(relativeChange(card.value, card.previous), card.field ?? undefined);

function KpiGrid({
  cards,
  locale,
  compared,
  sparklines,
}: {
  cards: KpiCardModel[];
  locale: Locale;
  compared: boolean;
  sparklines: boolean;
}) {
  return (
    <div className={sparklines ? 'or-kpi-grid' : 'or-kpi-cards'}>
      {cards.map((card) => (
        <Card key={card.id} className="or-kpi-card" aria-label={card.field ? fieldLabel(card.field) : card.id}>
          <KpiSummary card={card} locale={locale} compared={compared} />
          {sparklines && card.field && (
            <Sparkline
              values={card.series}
              compare={card.compareSeries}
              tone={tone(card)}
              label={`${fieldLabel(card.field)} over the period`}
            />
          )}
        </Card>
      ))}
    </div>
  );
}

interface KpiTabsProps {
  cards: KpiCardModel[];
  locale: Locale;
  compared: boolean;
  /** The chart's loading or error state while the time series is not there. */
  chartState: JSX.Element | null;
}

function KpiTabs({ cards, locale, compared, chartState }: KpiTabsProps) {
  const [selected, setSelected] = useState(0);
  const current = cards[Math.min(selected, cards.length - 1)];
  return (
    <div className="or-kpi-tabs">
      <div role="tablist" className="or-kpi-tablist">
        {cards.map((card, index) => (
          <button
            key={card.id}
            type="button"
            role="tab"
            aria-selected={card === current}
            className="or-kpi-tab"
            onClick={() => setSelected(index)}
          >
            <KpiSummary card={card} locale={locale} compared={compared} />
          </button>
        ))}
      </div>
      <div role="tabpanel" className="or-kpi-tabpanel">
        {!current.field ? (
          <WidgetEmpty title={widgetMessages.metricNotFound} />
        ) : (
          (chartState ?? (
            <Sparkline
              values={current.series}
              compare={current.compareSeries}
              tone={tone(current)}
              height={TAB_CHART_HEIGHT}
              label={`${fieldLabel(current.field)} over the period`}
            />
          ))
        )}
      </div>
    </div>
  );
}

function KpiView({ widget, context, schema, version }: GatedViewProps) {
  const ids = widget.metrics ?? KPI_DEFAULT_METRICS;
  const known = ids.filter((id) => schema.fields.some((field) => field.id === id && field.type === 'metric'));
  const scope = widgetQueryScope(widget, context, schema);
  const supersedeKey = useSupersedeKey(widget.id);
  const display = kpiDisplayOf(widget.visualizationSettings?.display?.type);
  const skip = known.length === 0;
  const workspaceId = context.scope.workspaceId;
  // Whole-period totals and per-bucket lines are separate queries: a ratio's total is not a sum of buckets.
  const totals = useFunnelQuery(
    {
      workspaceId,
      query: { kind: 'funnel', ...scope, metrics: known },
      version,
      supersedeKey: `${supersedeKey}/totals`,
      priority: useWidgetPriority(),
    },
    { skip },
  );
  const series = useTimeSeriesQuery(
    {
      workspaceId,
      query: { kind: 'timeSeries', ...scope, metrics: known, granularity: 'auto', weekStart: context.weekStart },
      version,
      supersedeKey: `${supersedeKey}/series`,
      priority: useWidgetPriority(),
    },
    { skip: skip || display === 'card' },
  );
  if (!ids.length) return <WidgetEmpty title={widgetMessages.noMetric} description={widgetMessages.noMetricHelp} />;
  const state = skip ? null : queryState(totals);
  if (state) return state;
  const cards = kpiCards(schema, ids, totals.currentData ?? { columns: [], rowCount: 0, data: {} }, series.currentData);
  const compared = scope.compare !== undefined;
  if (display === 'tab') {
    return <KpiTabs cards={cards} locale={context.locale} compared={compared} chartState={queryState(series)} />;
  }
  return <KpiGrid cards={cards} locale={context.locale} compared={compared} sparklines={display === 'grid'} />;
}

/**
 * KPI cards of the chosen metrics (spec 2 §2): a tab strip with one metric's chart, a grid of cards with
 * sparklines, or plain cards; each with its change against the comparison period.
 */
export const CampaignPerformanceWidget = gatedWidget(KpiView);
