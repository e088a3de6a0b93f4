import type { IconName, IconPaths } from '@blueprintjs/icons';
import caretDown from '@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down';
import chat from '@blueprintjs/icons/lib/esm/generated/16px/paths/chat';
import cog from '@blueprintjs/icons/lib/esm/generated/16px/paths/cog';
import cross from '@blueprintjs/icons/lib/esm/generated/16px/paths/cross';
import dashboard from '@blueprintjs/icons/lib/esm/generated/16px/paths/dashboard';
import help from '@blueprintjs/icons/lib/esm/generated/16px/paths/help';
import home from '@blueprintjs/icons/lib/esm/generated/16px/paths/home';
import locate from '@blueprintjs/icons/lib/esm/generated/16px/paths/locate';
import notifications from '@blueprintjs/icons/lib/esm/generated/16px/paths/notifications';
import people from '@blueprintjs/icons/lib/esm/generated/16px/paths/people';
import plus from '@blueprintjs/icons/lib/esm/generated/16px/paths/plus';

/**
 * The 16 px icons of the workspace shell (sidebar, tab strip, workspace switcher, feedback): in the shell's chunk,
 * not the first load, and registered before the shell first renders (src/app/router.tsx), so they are drawn with
 * its first paint rather than popping in after a request.
 */
export const shellIcons: Partial<Record<IconName, IconPaths>> = {
  dashboard,
  notifications,
  locate,
  people,
  help,
  cog,
  chat,
  home,
  cross,
  plus,
  'caret-down': caretDown,
};
