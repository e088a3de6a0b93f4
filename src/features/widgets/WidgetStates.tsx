import { NonIdealState, ProgressBar, Spinner } from '@blueprintjs/core';
import { type IconName } from '@blueprintjs/icons';
import { Component, type ErrorInfo, type JSX, type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { openDrawerParams } from '../shell/drawers';

/** Widget messages in the spec's words (spec 2 §8). */
export const widgetMessages = {
  renderError:
    'An error was encountered rendering this widget. Create a ticket in our helpdesk via the link below if the problem persists.',
  chartError:
    'Oops! We encountered an error while rendering this widget. Please try adjusting its settings, or refresh the page.',
  createTicket: 'Create ticket',
  noMetric: 'No metric selected',
  noMetricHelp: 'Select at least one metric in the configuration panel',
  metricNotFound: 'Metric not found',
  noData: 'Unable to find data for this metric',
  noDimensionOrMetric: 'No dimension or metric selected',
  noDimensionOrMetricHelp: 'Select a dimension or metric in the configuration panel',
  tableNothingSelected: 'Select at least 1 dimension or metric.',
  unsupportedMetric: 'This metric is currently not supported',
  unsupportedMetricHelp: 'Select a different metric',
  notSupportedHere: 'This widget is not supported for this workspace',
  noRows: 'There are no rows matching your current filters.',
} as const;

/** '{Type} widget is not supported yet in the new dashboard.' */
export const notSupportedYet = (label: string) => `${label} widget is not supported yet in the new dashboard.`;

/** The spinner shows only after 500 ms, so quick answers do not flash (spec 2 §9). */
export const SPINNER_DELAY_MS = 500;

interface WidgetLoadingProps {
  /** Fraction of the dataset downloaded (0–1), or null when unknown or already downloaded. */
  progress?: number | null;
}

export function WidgetLoading({ progress = null }: WidgetLoadingProps) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="or-widget-state" role="status" aria-busy="true" aria-label="Loading">
      {visible && (
        <>
          <Spinner size={24} />
          {progress !== null && progress < 1 && (
            <div className="or-widget-progress">
              <ProgressBar value={progress} stripes={false} />
              <span>Downloading data… {Math.round(progress * 100)}%</span>
            </div>
          )}
        </>
      )}
    </div>
  );
}

interface WidgetMessageProps {
  title: string;
  description?: ReactNode;
  /** @default 'info-sign' */
  icon?: IconName;
  action?: JSX.Element;
}

/** An empty state: nothing selected, nothing found. */
export function WidgetEmpty({ title, description, icon = 'info-sign', action }: WidgetMessageProps) {
  return (
    <div className="or-widget-state">
      <NonIdealState icon={icon} title={title} description={description} action={action} layout="vertical" />
    </div>
  );
}

/** A failure the widget can name (the dataset could not be fetched, a query failed). */
export function WidgetError({ title, description, icon = 'error', action }: WidgetMessageProps) {
  return (
    <div className="or-widget-state" role="alert">
      <NonIdealState icon={icon} title={title} description={description} action={action} layout="vertical" />
    </div>
  );
}

/** Error text carried in the link is cut short: a URL is no place for a stack. */
const TICKET_ERROR_MAX = 300;

function CreateTicketLink({ widget, error }: { widget?: string; error?: Error | null }) {
  const [params] = useSearchParams();
  const extra: Record<string, string> = {};
  if (widget) extra.widget = widget;
  if (error?.message) extra.error = error.message.slice(0, TICKET_ERROR_MAX);
  return (
    <Link to={{ search: openDrawerParams(params, 'feedback', extra).toString() }}>{widgetMessages.createTicket}</Link>
  );
}

/** What the boundary shows instead of a widget that threw while rendering; its link reports widget and error. */
export function WidgetCrashed({ widget, error }: { widget?: string; error?: Error | null }) {
  return <WidgetError title={widgetMessages.renderError} action={<CreateTicketLink widget={widget} error={error} />} />;
}

interface WidgetErrorBoundaryProps {
  children: ReactNode;
  /** A change (the widget's settings) clears the error, so a fixed configuration renders again. */
  resetKey: string;
  /** How a ticket names the widget. */
  widgetName?: string;
  /** What shows instead of the failed content. @default <WidgetCrashed /> with its ticket link */
  fallback?: ReactNode;
}

interface WidgetErrorBoundaryState {
  error: Error | null;
  resetKey: string;
}

/** Keeps one widget's failure inside its own frame (spec 2 §8); the rest of the dashboard renders on. */
export class WidgetErrorBoundary extends Component<WidgetErrorBoundaryProps, WidgetErrorBoundaryState> {
  override state: WidgetErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<WidgetErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: WidgetErrorBoundaryProps,
    state: WidgetErrorBoundaryState,
  ): Partial<WidgetErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Widget failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return this.props.fallback ?? <WidgetCrashed widget={this.props.widgetName} error={this.state.error} />;
  }
}
