import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** Spec 1 §9: at most 3 notifications at a time, hidden after 2 s unless a longer duration is asked for. */
export const MAX_NOTIFICATIONS = 3;
export const DEFAULT_NOTIFICATION_MS = 2_000;
/** Annotation and first-day-of-week messages stay 6 s. */
export const LONG_NOTIFICATION_MS = 6_000;

export type NotificationIntent = 'success' | 'danger' | 'primary' | 'none';

export interface AppNotification {
  id: string;
  message: string;
  intent: NotificationIntent;
  timeoutMs: number;
}

export interface NotificationsState {
  items: AppNotification[];
}

export const initialNotificationsState: NotificationsState = { items: [] };

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: initialNotificationsState,
  reducers: {
    notificationShown: {
      reducer(state, action: PayloadAction<AppNotification>) {
        state.items.push(action.payload);
        // The oldest gives way: a burst of messages never covers the page.
        if (state.items.length > MAX_NOTIFICATIONS) state.items.splice(0, state.items.length - MAX_NOTIFICATIONS);
      },
      prepare(message: string, intent: NotificationIntent = 'none', timeoutMs = DEFAULT_NOTIFICATION_MS) {
        return { payload: { id: nanoid(), message, intent, timeoutMs } };
      },
    },
    notificationDismissed(state, action: PayloadAction<string>) {
      state.items = state.items.filter((item) => item.id !== action.payload);
    },
  },
  selectors: {
    selectNotifications: (state) => state.items,
  },
});

export const { notificationShown, notificationDismissed } = notificationsSlice.actions;
export const { selectNotifications } = notificationsSlice.selectors;
export const notificationsReducer = notificationsSlice.reducer;
export { notificationsSlice };
