import { OverlayToaster, Position, Toast } from '@blueprintjs/core';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { MAX_NOTIFICATIONS, notificationDismissed, selectNotifications } from './notificationsSlice';

/** Renders the notifications of the store (at most 3, each with its own duration). */
export function Notifications() {
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectNotifications);
  return (
    <OverlayToaster position={Position.TOP} maxToasts={MAX_NOTIFICATIONS} usePortal>
      {items.map((item) => (
        <Toast
          key={item.id}
          message={item.message}
          intent={item.intent === 'none' ? undefined : item.intent}
          timeout={item.timeoutMs}
          onDismiss={() => dispatch(notificationDismissed(item.id))}
        />
      ))}
    </OverlayToaster>
  );
}
