import { Button, Classes, Dialog } from '@blueprintjs/core';
import { type FormEvent, type ReactNode } from 'react';

interface FormDialogProps {
  /** For a dialog that stays mounted while closed; others mount it when they show it. */
  isOpen?: boolean;
  title: string;
  /** The submit button's text. */
  submitText: string;
  /** The submission is under way: the submit button spins. */
  saving: boolean;
  /** Shows a Cancel button beside the submit button. */
  cancellable?: boolean;
  onSubmit(event: FormEvent): Promise<void>;
  onClose(): void;
  children: ReactNode;
}

/** A small dialog holding one form: its fields, then the footer with Cancel (optional) and the submit button. */
export function FormDialog(props: FormDialogProps) {
  const { isOpen = true, title, submitText, saving, cancellable = true, onSubmit, onClose, children } = props;
  return (
    <Dialog isOpen={isOpen} title={title} onClose={onClose} style={{ minWidth: 400 }}>
      <form onSubmit={(event) => void onSubmit(event)}>
        <div className={Classes.DIALOG_BODY}>{children}</div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            {cancellable && <Button text="Cancel" onClick={onClose} />}
            <Button type="submit" intent="primary" text={submitText} loading={saving} />
          </div>
        </div>
      </form>
    </Dialog>
  );
}
