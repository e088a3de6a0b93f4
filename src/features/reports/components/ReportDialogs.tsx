import { Alert, Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { MAX_TITLE_LENGTH } from '../../../contracts/reports';

export interface RenameReportDialogProps {
  /** The title the input starts with. */
  title: string;
  /** Called with the typed title; an empty one is ignored by the caller (spec 2 §5). */
  onConfirm: (title: string) => void;
  onClose: () => void;
}

/** Spec 2 §2: the rename dialog, in the spec's words. */
export function RenameReportDialog({ title, onConfirm, onClose }: RenameReportDialogProps) {
  const [value, setValue] = useState(title);
  return (
    <Dialog isOpen title="Please enter a new name for the view" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(value);
          onClose();
        }}
      >
        <DialogBody>
          <FormGroup label="Report name" labelFor="or-rename-report">
            <InputGroup
              id="or-rename-report"
              autoFocus
              value={value}
              maxLength={MAX_TITLE_LENGTH}
              onValueChange={setValue}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<Button type="submit" intent={Intent.PRIMARY} text="Ok" />} />
      </form>
    </Dialog>
  );
}

export interface DeleteReportDialogProps {
  onConfirm: () => void;
  onClose: () => void;
}

/** Spec 2 §2: the delete confirmation, in the spec's words. */
export function DeleteReportDialog({ onConfirm, onClose }: DeleteReportDialogProps) {
  return (
    <Alert
      isOpen
      intent={Intent.DANGER}
      icon="trash"
      confirmButtonText="Remove"
      cancelButtonText="Cancel"
      canEscapeKeyCancel
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>Are you sure you want to remove this view?</p>
    </Alert>
  );
}
