import './widgets.css';
import { CampaignPerformanceWidget } from './campaign_performance/CampaignPerformanceWidget';
import { FunnelWidget } from './funnel/FunnelWidget';
import { GraphWidget } from './graph/GraphWidget';
import { HighLowWidget } from './high_low/HighLowWidget';
import { ListWidget } from './list/ListWidget';
import { RichTextWidget } from './rich_text/RichTextWidget';
import { SubscriberGrowthWidget } from './subscriber_growth/SubscriberGrowthWidget';
import { TableWidget } from './table/TableWidget';
import { type WidgetProps } from './types';
import { widgetLabel } from './widgetMeta';
import { notSupportedYet, WidgetEmpty, WidgetErrorBoundary } from './WidgetStates';

function WidgetSwitch(props: WidgetProps) {
  switch (props.widget.type) {
    case 'campaign_performance':
      return <CampaignPerformanceWidget {...props} />;
    case 'graph':
      return <GraphWidget {...props} />;
    case 'funnel':
      return <FunnelWidget {...props} />;
    case 'table':
      return <TableWidget {...props} />;
    case 'high_low':
      return <HighLowWidget {...props} />;
    case 'list':
      return <ListWidget {...props} />;
    case 'rich_text':
      return <RichTextWidget {...props} />;
    case 'subscriber_growth':
      return <SubscriberGrowthWidget {...props} />;
    default:
      return <WidgetEmpty icon="warning-sign" title={notSupportedYet(widgetLabel(props.widget.type))} />;
  }
}

/**
 * A widget's content by its type, inside its own error boundary: the canvas draws it in each grid item
 * and the configure drawer as its live preview. A changed configuration clears a previous render error.
 */
export function WidgetBody(props: WidgetProps) {
  return (
    <div className="or-widget-body">
      <WidgetErrorBoundary resetKey={JSON.stringify(props.widget)}>
        <WidgetSwitch {...props} />
      </WidgetErrorBoundary>
    </div>
  );
}
