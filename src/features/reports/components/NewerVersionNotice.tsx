import { Button, Callout, Intent } from '@blueprintjs/core';
import { type Report } from '../../../contracts/reports';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useCurrentUser } from '../../shell/useCurrentWorkspace';
import { discarded, selectNewerVersion } from '../state/reportDocumentSlice';
import { useSaveReport } from '../useSaveReport';

export interface NewerVersionNoticeProps {
  report: Report;
  reportKey: string;
  /** Whether the document has local changes: only then can they be kept as a new version (a new view). */
  dirty: boolean;
}

/** Spec 2 §4: shown while the server holds a newer version than the one the local document is based on. */
export function NewerVersionNotice({ report, reportKey, dirty }: NewerVersionNoticeProps) {
  const dispatch = useAppDispatch();
  // memberId is the user id, which is what modified_by names.
  const user = useCurrentUser();
  const newer = useAppSelector((state) => selectNewerVersion(state, reportKey));
  const { save, saving } = useSaveReport({ workspaceId: report.workspace_id, type: report.type, id: report.id });
  if (!newer) return null;
  const author = newer.modifiedBy?.id === user.memberId ? 'You' : (newer.modifiedBy?.name ?? 'Another user');
  return (
    <Callout className="or-report-notice" intent={Intent.WARNING} icon="warning-sign" role="alert">
      <span>{author} saved a newer version of this report.</span>
      <Button text="Load new version" onClick={() => dispatch(discarded({ key: reportKey }))} />
      {dirty && <Button text="Save as new version" loading={saving} onClick={() => void save('saveAsNewView')} />}
    </Callout>
  );
}
