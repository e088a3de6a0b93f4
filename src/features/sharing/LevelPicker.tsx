import { Button, Classes, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { type AccessLevel } from '../../contracts/reports';
import { type LevelChoice } from './shareRules';

export interface LevelPickerProps {
  /** The level shown on the button. */
  level: AccessLevel;
  /** Every choice; a choice of level none (remove, no access) is set apart below the others. */
  choices: readonly LevelChoice[];
  onChange(level: AccessLevel): void;
  /** Names the button for assistive technology, e.g. 'Access of Anna'. */
  ariaLabel: string;
  /** @default false */
  disabled?: boolean;
}

/** A level button opening the levels with their descriptions (spec 2 §6 labels). */
export function LevelPicker({ level, choices, onChange, ariaLabel, disabled = false }: LevelPickerProps) {
  const current = choices.find((choice) => choice.level === level);
  const item = (choice: LevelChoice) => (
    <MenuItem
      key={choice.level}
      roleStructure="listoption"
      selected={choice.level === level}
      intent={choice.level === 'none' ? 'danger' : undefined}
      text={
        <>
          <div>{choice.label}</div>
          <div className={Classes.TEXT_MUTED}>{choice.description}</div>
        </>
      }
      onClick={() => onChange(choice.level)}
    />
  );
  const levels = choices.filter((choice) => choice.level !== 'none');
  const off = choices.filter((choice) => choice.level === 'none');
  return (
    <PopoverNext
      shouldReturnFocusOnClose={false}
      placement="bottom-end"
      animation="minimal"
      arrow={false}
      disabled={disabled}
      content={
        <Menu aria-label={ariaLabel}>
          {levels.map(item)}
          {off.length > 0 && <MenuDivider />}
          {off.map(item)}
        </Menu>
      }
    >
      <Button
        variant="minimal"
        endIcon="caret-down"
        text={current?.label ?? level}
        aria-label={ariaLabel}
        disabled={disabled}
      />
    </PopoverNext>
  );
}
