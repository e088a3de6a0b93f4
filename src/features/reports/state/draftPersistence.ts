import { z } from 'zod';
import { reportConfigSchema, reportTypeSchema } from '../../../contracts/reports';
import { startAppListening } from '../../../store/listeners';
import { authApi } from '../../auth/authApi';
import { draftOf, isReportDocumentAction, reportKey, type StoredDraft } from './reportDocumentActions';

/**
 * One local-storage item per user and report with unsaved changes: `reportDraft:7/dashboard/12`. Keyed by user so
 * that whoever signs in next on the same browser never sees (or saves) someone else's changes.
 */
export const DRAFT_PREFIX = 'reportDraft:';
export const draftItem = (memberId: number, key: string) => `${DRAFT_PREFIX}${memberId}/${key}`;

const storedDraftSchema = z.object({
  config: z.unknown(),
  title: z.string(),
  baseVersion: z.number().int().positive(),
  baseModifiedAt: z.string(),
});

/** A stored draft, or null when its key or value is not one this app wrote (those are ignored). */
export function parseDraft(key: string, value: string | null): StoredDraft | null {
  const [type, id, ...rest] = key.split('/');
  const parsedType = reportTypeSchema.safeParse(type);
  if (!parsedType.success || rest.length > 0 || !/^[1-9]\d*$/.test(id ?? '') || value === null) return null;
  if (reportKey(parsedType.data, Number(id)) !== key) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return null;
  }
  const draft = storedDraftSchema.safeParse(raw);
  if (!draft.success) return null;
  const config = reportConfigSchema(parsedType.data).safeParse(draft.data.config);
  return config.success ? { ...draft.data, config: config.data } : null;
}

/** The user's unsaved changes of a report kept from an earlier visit (spec 2 §4: they survive reloads). */
export const readDraft = (storage: Pick<Storage, 'getItem'>, memberId: number, key: string): StoredDraft | null =>
  parseDraft(key, storage.getItem(draftItem(memberId, key)));

/**
 * Keeps each report's draft in storage while it has local changes and removes it once it has none. Only the
 * document and its base version are written: the server copy is refetched, never stored.
 */
export function persistReportDrafts(storage: Pick<Storage, 'setItem' | 'removeItem'>): () => void {
  return startAppListening({
    matcher: isReportDocumentAction,
    effect: (action, api) => {
      const { key } = action.payload;
      const state = api.getState();
      const entry = state.reportDocuments?.docs[key];
      const memberId = authApi.endpoints.getMe.select()(state).data?.memberId;
      if (memberId === undefined || entry === api.getOriginalState().reportDocuments?.docs[key]) return;
      try {
        if (entry?.dirty) storage.setItem(draftItem(memberId, key), JSON.stringify(draftOf(entry)));
        else storage.removeItem(draftItem(memberId, key));
      } catch (error) {
        // A full storage loses the draft after a reload, not the edit in this page.
        console.warn('Could not keep the unsaved report changes', error);
      }
    },
  });
}
