import { type AccessLevel, type ShareLevel } from '../../contracts/reports';
import { can } from '../reports/reportsApi';

export type SaveChoice = 'save' | 'saveForEveryone' | 'saveAsNewView';

export const SAVE_CHOICE_LABELS: Record<SaveChoice, string> = {
  save: 'Save',
  saveForEveryone: 'Save for everyone',
  saveAsNewView: 'Save as new view',
};

/**
 * The save split button's choices, the first being the button itself (spec 2 §4 Save choices). A report
 * shared with nobody else has a plain Save; one that others can see offers 'Save for everyone' to writers
 * and always 'Save as new view', which leaves the shared report as it is.
 */
export function saveChoices(accessLevel: AccessLevel, shareLevel: ShareLevel): SaveChoice[] {
  if (!can.write(accessLevel)) return ['saveAsNewView'];
  return shareLevel === 'private' ? ['save'] : ['saveForEveryone', 'saveAsNewView'];
}

export type Shortcut = 'undo' | 'redo' | 'save';

/** The report page's keyboard shortcut a key press asks for; none while the user types in a field. */
export function shortcutOf(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'target'>) {
  if (!(event.ctrlKey || event.metaKey)) return null;
  const target = event.target as HTMLElement | null;
  if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable)) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 's' && !event.shiftKey) return 'save';
  return null;
}
