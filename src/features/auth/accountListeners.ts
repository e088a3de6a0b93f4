import { startAppListening } from '../../store/listeners';
import { firstDayOfWeekChanged } from '../prefs/prefsSlice';
import { workspacesLoaded } from '../workspaces/workspacesSlice';
import { authApi } from './authApi';

const selectMe = authApi.endpoints.getMe.select();

/**
 * The slices that must react to the signed-in user's account: the current workspace stays one of the user's
 * (spec 1 §4), and the account's first day of week wins over this browser's copy (it may have changed
 * elsewhere). Only what changed is taken over, so a poll answering the same account leaves local choices alone.
 */
export function followAccount(): () => void {
  return startAppListening({
    matcher: authApi.endpoints.getMe.matchFulfilled,
    effect: (action, listenerApi) => {
      const me = action.payload;
      const before = selectMe(listenerApi.getOriginalState()).data;
      if (me.workspaces !== before?.workspaces) listenerApi.dispatch(workspacesLoaded(me.workspaces));
      if (me.firstDayOfWeek !== before?.firstDayOfWeek) listenerApi.dispatch(firstDayOfWeekChanged(me.firstDayOfWeek));
    },
  });
}
