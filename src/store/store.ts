import { combineSlices, configureStore, type Action } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { datasetsSlice } from '../features/datasets/datasetsSlice';
import { dateRangeSlice } from '../features/date-range/dateRangeSlice';
import { notificationsSlice } from '../features/notifications/notificationsSlice';
import { prefsSlice } from '../features/prefs/prefsSlice';
import { dashboardSlice } from '../features/reports/state/dashboardSlice';
import { reportsListSlice } from '../features/reports/state/reportsListSlice';
import { tabsSlice } from '../features/reports/state/tabsSlice';
import { feedbackSlice } from '../features/shell/feedbackSlice';
import { shellSlice } from '../features/shell/shellSlice';
import { workspacesSlice } from '../features/workspaces/workspacesSlice';
import { api } from './api';
import { sanitizeAction, sanitizeState } from './devtools';
import { engineApi } from './engineApi';
import { listenerMiddleware } from './listeners';

/**
 * The slices of lazily loaded routes (the report documents, the data model: each with its redux-undo history; the
 * alert form; the target calculator). Each adds itself here with `declare module` and injects itself with
 * `rootReducer.inject` (or `slice.injectInto`) when its route's chunk loads, so their code stays out of the first
 * load; until then their state is absent.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the lazily loaded slices
export interface LazyLoadedSlices {}

/** Slices register here; lazily loaded features add theirs with `rootReducer.inject` (see LazyLoadedSlices). */
export const rootReducer = combineSlices(
  api,
  prefsSlice,
  engineApi,
  datasetsSlice,
  notificationsSlice,
  workspacesSlice,
  shellSlice,
  feedbackSlice,
  dashboardSlice,
  dateRangeSlice,
  tabsSlice,
  reportsListSlice,
).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

export function setupStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(listenerMiddleware.middleware).concat(api.middleware, engineApi.middleware),
    // RTK Query's actions notify the page once per task rather than at the next animation frame: a widget's
    // answer is drawn when it arrives, and the frame shows it, instead of the frame's start waiting on the drawing.
    enhancers: (getDefaultEnhancers) => getDefaultEnhancers({ autoBatch: { type: 'tick' } }),
    devTools:
      process.env.NODE_ENV === 'production'
        ? false
        : {
            name: 'Openrate',
            actionSanitizer: sanitizeAction as <A extends Action>(action: A) => A,
            stateSanitizer: sanitizeState,
          },
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
