import {
  DEFAULT_NOTIFICATION_MS,
  initialNotificationsState,
  LONG_NOTIFICATION_MS,
  notificationDismissed,
  notificationShown,
  notificationsReducer,
} from './notificationsSlice';

describe('notifications', () => {
  it('keeps at most 3, the oldest giving way', () => {
    const state = ['one', 'two', 'three', 'four'].reduce(
      (current, message) => notificationsReducer(current, notificationShown(message)),
      initialNotificationsState,
    );
    expect(state.items.map((item) => item.message)).toEqual(['two', 'three', 'four']);
  });

  it('hides after 2 s by default, 6 s when asked, and can be dismissed', () => {
    let state = notificationsReducer(initialNotificationsState, notificationShown('Copied to clipboard'));
    state = notificationsReducer(
      state,
      notificationShown('First day of week updated', 'success', LONG_NOTIFICATION_MS),
    );
    expect(state.items.map((item) => [item.timeoutMs, item.intent])).toEqual([
      [DEFAULT_NOTIFICATION_MS, 'none'],
      [6_000, 'success'],
    ]);
    expect(DEFAULT_NOTIFICATION_MS).toBe(2_000);
    state = notificationsReducer(state, notificationDismissed(state.items[0].id));
    expect(state.items.map((item) => item.message)).toEqual(['First day of week updated']);
  });
});
