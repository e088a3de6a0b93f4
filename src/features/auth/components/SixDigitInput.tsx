import { InputGroup } from '@blueprintjs/core';
import { useState } from 'react';

export interface SixDigitInputProps {
  /** Called once six digits are in; the input empties itself when the promise settles with false. */
  onComplete: (code: string) => Promise<boolean>;
  /** Disables the input while the code is checked. @default false */
  disabled?: boolean;
  /** Accessible name of the field. @default 'Six-digit code' */
  label?: string;
}

/** A one-time-code field that submits itself when the sixth digit is typed (spec 1 §2.3, §4). */
export function SixDigitInput({ onComplete, disabled = false, label = 'Six-digit code' }: SixDigitInputProps) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);

  const onChange = async (raw: string) => {
    const digits = raw.replace(/\D/g, '').slice(0, 6);
    setValue(digits);
    if (digits.length !== 6) return;
    setBusy(true);
    const accepted = await onComplete(digits);
    setBusy(false);
    if (!accepted) setValue('');
  };

  return (
    <InputGroup
      aria-label={label}
      autoFocus
      autoComplete="one-time-code"
      inputMode="numeric"
      size="large"
      maxLength={6}
      placeholder="000000"
      value={value}
      disabled={disabled || busy}
      onValueChange={(next) => void onChange(next)}
    />
  );
}
