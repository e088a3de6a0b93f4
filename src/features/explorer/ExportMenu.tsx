import { Button, Menu, MenuItem, PopoverNext, ProgressBar } from '@blueprintjs/core';
import { type ExportFormat, type ExportProgress } from './useExplorerExport';

export const exportLabels = { csv: 'Export to CSV', xlsx: 'Export to Excel' } as const;

export interface ExportMenuProps {
  progress: ExportProgress | null;
  disabled: boolean;
  onExport(format: ExportFormat): void;
  onCancel(): void;
}

/** The toolbar's Export menu; while an export runs, its progress and a Cancel button. */
export function ExportMenu({ progress, disabled, onExport, onCancel }: ExportMenuProps) {
  if (progress) {
    return (
      <span className="or-explorer-export-progress" aria-label="Export progress">
        <ProgressBar value={progress.done} intent="primary" />
        <Button text="Cancel" variant="minimal" size="small" onClick={onCancel} />
      </span>
    );
  }
  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      placement="bottom-end"
      content={
        <Menu>
          <MenuItem icon="th" text={exportLabels.csv} onClick={() => onExport('csv')} />
          <MenuItem icon="th-derived" text={exportLabels.xlsx} onClick={() => onExport('xlsx')} />
        </Menu>
      }
    >
      <Button icon="export" text="Export" endIcon="caret-down" variant="minimal" disabled={disabled} />
    </PopoverNext>
  );
}
