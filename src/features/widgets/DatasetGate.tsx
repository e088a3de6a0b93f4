import { type ComponentType, type JSX, type ReactNode } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { datasetOfWidget, type Widget } from '../../contracts/reports';
import { type ResultColumns } from '../../store/engineApi';
import { type EngineError } from '../../workers/protocol';
import { type DataScope, type WidgetProps } from './types';
import { useWidgetData } from './useWidgetData';
import { WidgetError, WidgetLoading, widgetMessages } from './WidgetStates';

/** The steps to mitigate under 'Yikes! …' (spec 2 §8 Data). */
const FETCH_ERROR_HELP = 'Check your internet connection and refresh the page. If that does not help, try again later.';

interface DatasetGateProps {
  widget: Widget;
  scope: DataScope;
  /** The widget's content once its dataset can be queried. */
  children: (schema: DatasetSchema, version: string) => ReactNode;
}

/** Shows a widget's download progress or failure, and its content once the dataset is in the engine. */
export function DatasetGate({ widget, scope, children }: DatasetGateProps) {
  const data = useWidgetData(scope, datasetOfWidget(widget));
  if (data.status === 'error') return <WidgetError title={data.error ?? ''} description={FETCH_ERROR_HELP} />;
  if (data.status === 'loading' || !data.schema || !data.version) return <WidgetLoading progress={data.progress} />;
  return <>{children(data.schema, data.version)}</>;
}

/** The parts of an engine query hook's result a widget looks at. */
export interface EngineResult {
  /** The result of the current arguments only, so a date change never shows the previous numbers. */
  currentData?: ResultColumns;
  isError: boolean;
  error?: unknown;
}

/** The query's loading or error state, or null when its result is there. */
export function queryState(result: EngineResult): JSX.Element | null {
  if (result.isError) {
    const error = result.error as EngineError | undefined;
    console.error('Widget query failed', error?.message);
    return <WidgetError title={widgetMessages.chartError} />;
  }
  return result.currentData ? null : <WidgetLoading />;
}

/** What a widget's view receives once its dataset is in the engine. */
export interface GatedViewProps extends WidgetProps {
  schema: DatasetSchema;
  version: string;
}

/** A widget type's component: its view behind the DatasetGate, which shows the dataset's progress or failure first. */
export function gatedWidget(View: ComponentType<GatedViewProps>) {
  return function GatedWidget(props: WidgetProps) {
    return (
      <DatasetGate widget={props.widget} scope={props.context.scope}>
        {(schema, version) => <View {...props} schema={schema} version={version} />}
      </DatasetGate>
    );
  };
}
