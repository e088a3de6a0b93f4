import { useCallback } from 'react';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from './notificationsSlice';

/** Spec 1 §9 and spec 3: every copy action confirms with this toast, shown 2 s. */
export const COPIED_MESSAGE = 'Copied to clipboard';

/**
 * Copies text for any screen (share links, webhook secrets, issued credentials) and confirms with the spec's toast.
 * Answers false when the browser refused (no permission, insecure origin), so the caller can offer manual copying.
 */
export function useCopyToClipboard(): (text: string) => Promise<boolean> {
  const dispatch = useAppDispatch();
  return useCallback(
    async (text: string) => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        return false;
      }
      dispatch(notificationShown(COPIED_MESSAGE, 'success'));
      return true;
    },
    [dispatch],
  );
}
