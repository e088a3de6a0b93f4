import { InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { FieldGroup } from '../shell/components/FieldGroup';
import { isSelectableDay } from './ranges';

export interface DayInputProps {
  id: string;
  label: string;
  /** The day the draft holds, yyyy-MM-dd. */
  value?: string;
  /** A message shown under the input (the end before the start). */
  error?: string;
  onDay(day: string): void;
  onFocus(): void;
}

/**
 * A yyyy-MM-dd text input: what the user types stays in the box, and only a valid, selectable day
 * reaches the picker; the box follows the picker when a day is picked elsewhere.
 */
export function DayInput({ id, label, value = '', error, onDay, onFocus }: DayInputProps) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  return (
    <FieldGroup label={label} labelFor={id} error={error} className="or-range-input">
      <InputGroup
        id={id}
        placeholder="yyyy-MM-dd"
        value={text}
        intent={error ? 'danger' : 'none'}
        onFocus={onFocus}
        onValueChange={(next) => {
          setText(next);
          if (isSelectableDay(next)) onDay(next);
        }}
      />
    </FieldGroup>
  );
}
