import { type WorkspaceStatus } from '../../contracts/common';

/** The public page's messages (spec 2 §8 Public report messages). */
export const NO_OR_INVALID_URL = 'No or invalid url';
export const VIEW_NOT_FOUND = 'View not found';

/** The report id of /reports/{reportId}, or null when there is none or it is not a report id. */
export function publicReportIdOf(param: string | undefined): number | null {
  if (param === undefined || !/^[1-9][0-9]{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= 2_147_483_647 ? id : null;
}

/** What one public call has given so far. */
export interface PublicCall {
  hasData: boolean;
  /** The HTTP status of its last failure; 'failed' for a failure without one (network); undefined if none. */
  error?: number | 'failed';
}

export type PublicPage = 'invalid' | 'loading' | 'notFound' | 'suspended' | 'cancelled' | 'error' | 'report';

/**
 * Which page /reports/{reportId} shows. A not-found answer wins over anything loaded before: the link was
 * turned off (or the report deleted), so what an earlier call showed must go at once.
 */
export function publicPageOf(
  reportId: number | null,
  report: PublicCall,
  workspace: PublicCall & { status?: WorkspaceStatus },
): PublicPage {
  if (reportId === null) return 'invalid';
  if (report.error === 404 || workspace.error === 404) return 'notFound';
  if (workspace.status === 'suspended' || workspace.status === 'cancelled') return workspace.status;
  // Any other failure keeps what was shown: a refetch lost on the network says nothing about the link.
  if ((report.error !== undefined && !report.hasData) || (workspace.error !== undefined && !workspace.hasData)) {
    return 'error';
  }
  return report.hasData && workspace.hasData ? 'report' : 'loading';
}
