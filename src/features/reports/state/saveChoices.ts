import { type AccessLevel, type ShareLevel } from '../../../contracts/reports';
import { can } from '../reportsApi';

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
