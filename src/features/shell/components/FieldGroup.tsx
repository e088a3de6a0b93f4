import { FormGroup, type FormGroupProps } from '@blueprintjs/core';

interface FieldGroupProps extends Omit<FormGroupProps, 'intent' | 'helperText'> {
  /** The field's message (the spec's words), shown in red under it; none, no message. */
  error?: string | null;
}

/** A labelled form field with its validation message: every form shows a refused value the same way. */
export function FieldGroup({ error, ...props }: FieldGroupProps) {
  return <FormGroup {...props} intent={error ? 'danger' : 'none'} helperText={error ?? undefined} />;
}
