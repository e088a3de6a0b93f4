import { Alert, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { type Target } from '../../contracts/targets';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { useDeleteTargetMutation } from './targetsApi';

export const FAILED_TO_DELETE = 'Failed to delete target';

/**
 * Deleting a target after a confirmation: `ask(target)` opens it, `alert` is the element to render.
 * `onDeleted` runs once the server has deleted it (a widget then drops the id from its list).
 */
export function useTargetDeletion(workspaceId: number, onDeleted?: (target: Target) => void) {
  const dispatch = useAppDispatch();
  const [pending, setPending] = useState<Target | null>(null);
  const [deleteTarget] = useDeleteTargetMutation();
  const confirm = async (target: Target) => {
    setPending(null);
    try {
      await deleteTarget({ workspaceId, id: target.id }).unwrap();
      onDeleted?.(target);
    } catch {
      dispatch(notificationShown(FAILED_TO_DELETE, 'danger'));
    }
  };
  const alert = pending && (
    <Alert
      isOpen
      intent={Intent.DANGER}
      icon="trash"
      confirmButtonText="Delete"
      cancelButtonText="Cancel"
      canEscapeKeyCancel
      onConfirm={() => void confirm(pending)}
      onClose={() => setPending(null)}
    >
      <p>Are you sure you want to delete the target “{pending.title}”?</p>
    </Alert>
  );
  return { ask: setPending, alert };
}
