import './widgets.css';
import { Suspense } from 'react';
import { widgetDefinition, widgetLabel } from './registry';
import { type WidgetProps } from './types';
import { notSupportedYet, WidgetEmpty, WidgetErrorBoundary, WidgetLoading } from './WidgetStates';

function WidgetView(props: WidgetProps) {
  const View = widgetDefinition(props.widget.type)?.View;
  return View ? (
    <View {...props} />
  ) : (
    <WidgetEmpty icon="warning-sign" title={notSupportedYet(widgetLabel(props.widget.type))} />
  );
}

/**
 * A widget's content by its type, inside its own error boundary: the canvas draws it in each grid item
 * and the configure drawer as its live preview. A changed configuration clears a previous render error.
 */
export function WidgetBody(props: WidgetProps) {
  return (
    // Focusable, so keyboard users can scroll a widget whose content overflows (a long note or list).
    <div className="or-widget-body" tabIndex={0}>
      <WidgetErrorBoundary
        resetKey={JSON.stringify(props.widget)}
        widgetName={`${props.widget.title || widgetLabel(props.widget.type)} (${props.widget.type} ${props.widget.id})`}
      >
        {/* A kind's view may be lazy (the text widget's editor): loading until its code is here. */}
        <Suspense fallback={<WidgetLoading />}>
          <WidgetView {...props} />
        </Suspense>
      </WidgetErrorBoundary>
    </div>
  );
}
