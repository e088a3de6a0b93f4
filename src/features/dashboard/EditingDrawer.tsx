import { Button, H5, Icon, InputGroup } from '@blueprintjs/core';
import { type DragEvent as ReactDragEvent, useState } from 'react';
import { type Widget } from '../../contracts/reports';
import { paletteTypes, widgetLabel, widgetRegistry } from '../widgets/registry';

/** The drag data type of a palette tile; its value is the widget type. */
export const PALETTE_DRAG_TYPE = 'application/x-openrate-widget';
export const PALETTE_HEADING = 'Drag & drop widget(s) into the dashboard';

export interface EditingDrawerProps {
  flags: string[];
  /** The selected widget, whose settings the drawer shows instead of the palette. */
  selected: Widget | undefined;
  onPaletteDragStart(type: string): void;
  onPaletteDragEnd(): void;
  /** A tile chosen without dragging (click or keyboard): the widget goes to the bottom. */
  onPaletteAdd(type: string): void;
  onChange(widget: Widget): void;
  onConfigure(widgetId: string): void;
  onDuplicate(widgetId: string): void;
  onRemove(widgetId: string): void;
  onClose(): void;
}

/** The left editing drawer of a dashboard in edit mode (spec 2 §2): the widget palette or the selected widget. */
export function EditingDrawer(props: EditingDrawerProps) {
  return (
    <aside className="or-dashboard-editing-drawer" aria-label="Editing drawer">
      {props.selected ? (
        <SelectedWidget key={props.selected.id} widget={props.selected} {...props} />
      ) : (
        <Palette {...props} />
      )}
    </aside>
  );
}

function Palette({ flags, onPaletteDragStart, onPaletteDragEnd, onPaletteAdd }: EditingDrawerProps) {
  const dragStart = (type: string) => (event: ReactDragEvent) => {
    event.dataTransfer.effectAllowed = 'copy';
    event.dataTransfer.setData(PALETTE_DRAG_TYPE, type);
    // Firefox starts a drag only with some data set; text/plain is the one every browser carries.
    event.dataTransfer.setData('text/plain', type);
    onPaletteDragStart(type);
  };
  return (
    <>
      <H5>{PALETTE_HEADING}</H5>
      <ul className="or-dashboard-palette">
        {paletteTypes(flags).map((type) => (
          <li key={type}>
            <button
              type="button"
              className="or-dashboard-palette-tile"
              draggable
              data-widget-type={type}
              onDragStart={dragStart(type)}
              onDragEnd={onPaletteDragEnd}
              onClick={() => onPaletteAdd(type)}
            >
              <Icon icon={widgetRegistry[type].icon} size={20} />
              <span>{widgetRegistry[type].label}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

function SelectedWidget({
  widget,
  onChange,
  onConfigure,
  onDuplicate,
  onRemove,
  onClose,
}: EditingDrawerProps & { widget: Widget }) {
  const [title, setTitle] = useState(widget.title ?? '');
  const commitTitle = () => {
    if (title !== (widget.title ?? '')) onChange({ ...widget, title });
  };
  return (
    <div className="or-dashboard-selected-widget">
      <div className="or-dashboard-selected-widget-header">
        <H5>{widgetLabel(widget.type)}</H5>
        <Button variant="minimal" size="small" icon="cross" aria-label="Back to the palette" onClick={onClose} />
      </div>
      <label className="or-dashboard-field">
        <span>Title</span>
        <InputGroup
          value={title}
          placeholder={widgetLabel(widget.type)}
          onValueChange={setTitle}
          onBlur={commitTitle}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commitTitle();
          }}
        />
      </label>
      <Button fill icon="cog" text="Configure" onClick={() => onConfigure(widget.id)} />
      <Button fill icon="duplicate" text="Duplicate" onClick={() => onDuplicate(widget.id)} />
      <Button fill icon="trash" intent="danger" variant="outlined" text="Remove" onClick={() => onRemove(widget.id)} />
    </div>
  );
}
