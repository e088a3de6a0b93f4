import './widgetConfig.css';
import { Classes, Drawer, NonIdealState } from '@blueprintjs/core';
import { useEffect, useMemo, useRef } from 'react';
import { datasetOfWidget, type Widget } from '../../contracts/reports';
import { widgetDefinition, widgetLabel } from '../widgets/registry';
import { type WidgetContext } from '../widgets/types';
import { useWidgetData } from '../widgets/useWidgetData';
import { WidgetBody } from '../widgets/WidgetBody';
import { cleanWidget } from './cleanup';
import { editWidget } from './widgetConfigSlice';
import { datasetChanged, type WidgetConfigAction } from './widgetEdits';
import { WidgetSettings } from './WidgetSettings';

export interface ConfigureWidgetDrawerProps {
  isOpen: boolean;
  /** The widget being configured; undefined when the drawer's widget id is unknown. */
  widget: Widget | undefined;
  context: WidgetContext;
  /** Every change, as the new widget (the canvas saves it locally, undoable). */
  onChange(widget: Widget): void;
  onClose(): void;
}

export const WIDGET_NOT_FOUND = 'Widget not found';

interface ConfigureWidgetProps {
  widget: Widget;
  context: WidgetContext;
  onChange(widget: Widget): void;
}

function ConfigureWidget({ widget, context, onChange }: ConfigureWidgetProps) {
  const datasetId = widgetDefinition(widget.type)?.dataset === 'none' ? null : datasetOfWidget(widget);
  const data = useWidgetData(context.scope, datasetId);
  const schema = data.schema?.id === datasetId ? data.schema : undefined;
  // Settings and preview show only what the dataset has; the first edit saves the cleaned widget.
  const shown = useMemo(() => (schema ? cleanWidget(widget, schema) : widget), [widget, schema]);
  const cleanOnLoad = useRef(false);

  useEffect(() => {
    // After a dataset change, what the new dataset lacks is dropped as soon as its schema is known.
    if (!cleanOnLoad.current || !schema) return;
    cleanOnLoad.current = false;
    if (shown !== widget) onChange(shown);
  }, [schema, shown, widget, onChange]);

  const onEdit = (action: WidgetConfigAction) => {
    const next = editWidget(shown, action, schema);
    if (next === shown) return;
    if (action.type === datasetChanged.type) cleanOnLoad.current = true;
    onChange(next);
  };

  return (
    <div className={`${Classes.DRAWER_BODY} or-widget-config`}>
      <section className="or-widget-config-side" aria-label="Widget settings">
        <h3 className={Classes.HEADING}>{widgetLabel(widget.type)}</h3>
        <WidgetSettings
          widget={shown}
          schema={schema}
          datasetError={data.error}
          version={data.version}
          scope={context.scope}
          onEdit={onEdit}
        />
      </section>
      <section className="or-widget-config-preview" aria-label="Preview">
        <WidgetBody widget={shown} context={context} />
      </section>
    </div>
  );
}

/**
 * The 'Configure widget' drawer (spec 2 §2): the widget's settings on the left and a live preview on the
 * right. Each change goes to the canvas at once as the new widget.
 */
export function ConfigureWidgetDrawer({ isOpen, widget, context, onChange, onClose }: ConfigureWidgetDrawerProps) {
  return (
    <Drawer isOpen={isOpen} onClose={onClose} title="Configure widget" size="90%" className="or-widget-config-drawer">
      {widget ? (
        <ConfigureWidget key={widget.id} widget={widget} context={context} onChange={onChange} />
      ) : (
        <div className={Classes.DRAWER_BODY}>
          <NonIdealState icon="search" title={WIDGET_NOT_FOUND} />
        </div>
      )}
    </Drawer>
  );
}
