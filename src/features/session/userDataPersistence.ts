import { LAST_MEMBER_KEY } from '../../app/signedInHere';
import { startAppListening } from '../../store/listeners';
import { ANSWERS_KEPT_AT_KEY } from '../../workers/keptResults';
import { authApi } from '../auth/authApi';
import { KEPT_DATASETS_KEY } from '../datasets/keptDatasets';
import { FIRST_DAY_OF_WEEK_KEY } from '../prefs/prefsPersistence';
import { DRAFT_PREFIX } from '../reports/state/draftPersistence';
import { LIST_VIEW_KEY_PREFIX } from '../reports/state/reportsListPersistence';
import { TABS_KEY_PREFIX } from '../reports/state/tabsPersistence';
import { ACTIVATION_REQUESTED_KEY, CURRENT_WORKSPACE_KEYS } from '../workspaces/localPersistence';
import { signedInUserChanged, signedOut } from './sessionActions';

/**
 * Stored items that belong to a user: report drafts (report content), tab strips (report titles), list views,
 * the workspaces they were in, their own first day of the week, the pages whose answers were kept and the datasets'
 * schemas and versions those answers were for. The colour mode and the collapsed settings menu describe the
 * browser, not the person, and stay.
 */
const USER_PREFIXES = [DRAFT_PREFIX, TABS_KEY_PREFIX, LIST_VIEW_KEY_PREFIX];
const USER_KEYS: readonly string[] = [
  ...CURRENT_WORKSPACE_KEYS,
  ACTIVATION_REQUESTED_KEY,
  FIRST_DAY_OF_WEEK_KEY,
  LAST_MEMBER_KEY,
  ANSWERS_KEPT_AT_KEY,
  KEPT_DATASETS_KEY,
];

type UserStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/** Removes every user-specific item; other sites' and the browser-wide items are left alone. */
export function clearUserData(storage: UserStorage): void {
  const doomed: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key !== null && (USER_KEYS.includes(key) || USER_PREFIXES.some((prefix) => key.startsWith(prefix)))) {
      doomed.push(key);
    }
  }
  // Collected first: removing while walking the indexes would skip items.
  for (const key of doomed) storage.removeItem(key);
}

/** What a user's visit leaves in the browser for the next one: dataset files, the engine's answers. */
export interface KeptStore {
  clear(): Promise<void>;
}

/**
 * Clears the user's stored work, and what is kept for their next visit (`kept`: the dataset files and the engine's
 * answers; a store missing in this browser is undefined), at logout and when the signed-in user turns out to be
 * someone else than the last one of this browser (checked on every answer of GET /api/me). Returns the function
 * that stops it.
 */
export function startUserDataListeners(
  storage: UserStorage,
  kept: readonly (KeptStore | undefined)[] = [],
): () => void {
  const clearKept = () => Promise.all(kept.map((store) => store?.clear())).then(() => undefined);
  // No one remembered: the last user logged out (leaving the page may have cut that removal short) or never was.
  if (storage.getItem(LAST_MEMBER_KEY) === null) void clearKept();
  const stops = [
    startAppListening({
      actionCreator: signedOut,
      effect: async () => {
        clearUserData(storage);
        await clearKept();
      },
    }),
    startAppListening({
      matcher: authApi.endpoints.getMe.matchFulfilled,
      effect: (action, api) => {
        const memberId = action.payload.memberId;
        try {
          if (storage.getItem(LAST_MEMBER_KEY) === String(memberId)) return;
          // Unknown or different: whatever is stored may be another person's.
          clearUserData(storage);
          void clearKept();
          storage.setItem(LAST_MEMBER_KEY, String(memberId));
        } catch (error) {
          console.warn('Could not clear the previous user’s stored data', error);
        }
        api.dispatch(signedInUserChanged({ memberId }));
      },
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
