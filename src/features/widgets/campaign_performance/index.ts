import { DEFAULT_EXPLORER_DATASET } from '../../../contracts/reports';
import { always, type WidgetDefinition } from '../definition';
import { CampaignPerformanceSettings } from './CampaignPerformanceSettings';
import { CampaignPerformanceWidget } from './CampaignPerformanceWidget';
import { KPI_DEFAULT_METRICS, KPI_OVERVIEW_LABEL, kpiDisplays } from './defaults';

export const campaignPerformanceWidget: WidgetDefinition = {
  label: KPI_OVERVIEW_LABEL,
  icon: 'grid-view',
  inPalette: always,
  defaults: {
    dataset: DEFAULT_EXPLORER_DATASET,
    metrics: KPI_DEFAULT_METRICS,
    visualizationSettings: { display: { type: 'tab' } },
  },
  displays: kpiDisplays,
  dataset: 'choice',
  Settings: CampaignPerformanceSettings,
  queries: ['funnel', 'timeSeries'],
  opensInKpiDrawer: true,
  View: CampaignPerformanceWidget,
};
