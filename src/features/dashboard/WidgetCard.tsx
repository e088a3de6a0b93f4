import { Button, Classes, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { type DragEvent as ReactDragEvent } from 'react';
import { type Widget } from '../../contracts/reports';
import { widgetDefinition, widgetLabel } from '../widgets/registry';
import { type WidgetContext } from '../widgets/types';
import { WidgetBody } from '../widgets/WidgetBody';

export type DropSide = 'before' | 'after';

export interface WidgetCardProps {
  widget: Widget;
  context: WidgetContext;
  /** The widget is being edited: its menu offers the edit actions and a click selects it. */
  editing: boolean;
  selected: boolean;
  /** Something is being dragged over the canvas: the drop lines above and below are shown. */
  dropLinesShown: boolean;
  /** The line the dragged item would land on, if it is one of this widget's. */
  activeDropSide: DropSide | null;
  /** Set in the list layout: the header is an HTML5 drag source for reordering. */
  onReorderDragStart?: (event: ReactDragEvent) => void;
  onSelect(): void;
  onConfigure(): void;
  onDuplicate(): void;
  onRemove(): void;
  onOpenKpi(): void;
  onChange(widget: Widget): void;
}

/** The class of a widget header: react-grid-layout drags widgets by it. */
export const WIDGET_DRAG_HANDLE = 'or-dashboard-widget-header';
/** Inside the header, the menu is not a drag handle. */
export const WIDGET_DRAG_CANCEL = 'or-dashboard-widget-menu';

/** One widget on the canvas: its title, its menu and its content. */
export function WidgetCard(props: WidgetCardProps) {
  const { widget, context, editing, selected } = props;
  const title = widget.title || widgetLabel(widget.type);
  const menuItems = [
    ...(editing
      ? [
          <MenuItem key="configure" icon="cog" text="Configure" onClick={props.onConfigure} />,
          <MenuItem key="duplicate" icon="duplicate" text="Duplicate" onClick={props.onDuplicate} />,
          <MenuItem key="remove" icon="trash" intent="danger" text="Remove" onClick={props.onRemove} />,
        ]
      : []),
    ...(widgetDefinition(widget.type)?.opensInKpiDrawer
      ? [<MenuItem key="kpi" icon="zoom-in" text="Open in kpi drawer" onClick={props.onOpenKpi} />]
      : []),
  ];
  return (
    <section
      className={['or-dashboard-widget', Classes.CARD, selected ? 'or-dashboard-widget-selected' : '']
        .filter(Boolean)
        .join(' ')}
      data-widget-id={widget.id}
      aria-label={title}
      aria-selected={editing ? selected : undefined}
      onClick={editing ? props.onSelect : undefined}
    >
      {props.dropLinesShown && (
        <div
          className={`or-dashboard-drop-line or-dashboard-drop-line-before${props.activeDropSide === 'before' ? ' or-dashboard-drop-line-active' : ''}`}
        />
      )}
      <header
        className={WIDGET_DRAG_HANDLE}
        draggable={props.onReorderDragStart ? true : undefined}
        onDragStart={props.onReorderDragStart}
      >
        <h3 className="or-dashboard-widget-title" title={title}>
          {title}
        </h3>
        {menuItems.length > 0 && (
          <PopoverNext
            // One per widget: closed, it mounts no portal until first opened.
            lazy
            shouldReturnFocusOnClose={false}
            placement="bottom-end"
            content={<Menu>{menuItems}</Menu>}
            renderTarget={({ isOpen: _isOpen, ...targetProps }) => (
              <Button
                {...targetProps}
                className={WIDGET_DRAG_CANCEL}
                variant="minimal"
                size="small"
                icon="more"
                aria-label="Widget menu"
              />
            )}
          />
        )}
      </header>
      <div className="or-dashboard-widget-content">
        <WidgetBody widget={widget} context={context} onChange={props.onChange} />
      </div>
      {props.dropLinesShown && (
        <div
          className={`or-dashboard-drop-line or-dashboard-drop-line-after${props.activeDropSide === 'after' ? ' or-dashboard-drop-line-active' : ''}`}
        />
      )}
    </section>
  );
}
