import { type HotkeyConfig, useHotkeys } from '@blueprintjs/core';
import { useEffect, useMemo, useRef } from 'react';

export interface ReportShortcutActions {
  undo(): void;
  redo(): void;
  save(): void;
}

/**
 * Both Ctrl and Cmd work on every system, as they always did here: Blueprint's `mod` would take only the
 * platform's own key. Each combo is listed in the `?` help dialog under the report's group.
 */
const MODIFIERS = ['ctrl', 'meta'] as const;
const COMBOS: { action: keyof ReportShortcutActions; label: string; key: string }[] = [
  { action: 'undo', label: 'Undo', key: 'z' },
  { action: 'redo', label: 'Redo', key: 'shift+z' },
  { action: 'save', label: 'Save', key: 's' },
];

/**
 * The report page's keyboard shortcuts. Blueprint leaves them alone while the user types in a
 * field, and they keep the browser's own Ctrl+S (save the page) and undo from acting as well.
 */
export function useReportShortcuts(actions: ReportShortcutActions, group = 'Report') {
  // The latest actions are read at key press, so the registered hotkeys (and the help dialog's list) stay put
  // while the page re-renders with new callbacks.
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  const hotkeys = useMemo<HotkeyConfig[]>(
    () =>
      MODIFIERS.flatMap((modifier) =>
        COMBOS.map(({ action, label, key }) => ({
          combo: `${modifier}+${key}`,
          label,
          group,
          global: true,
          preventDefault: true,
          onKeyDown: () => latest.current[action](),
        })),
      ),
    [group],
  );
  useHotkeys(hotkeys);
}
