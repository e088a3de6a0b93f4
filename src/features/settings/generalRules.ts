import { LOGO_MAX_BYTES, type Workspace } from '../../contracts/workspaces';

/** Sizes in base-1024 units (spec 1 §9), e.g. '2 MB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Why a chosen logo file cannot be used, checked before uploading (spec 1 §5). */
export function logoProblem(file: Pick<File, 'size' | 'type'>): string | null {
  if (file.size > LOGO_MAX_BYTES) {
    return `This file is too big, please try a file smaller than ${formatBytes(LOGO_MAX_BYTES)}.`;
  }
  if (!file.type.startsWith('image/')) return 'Unable to process this file, try another.';
  return null;
}

/** Spec 1 §4 as written: deletion is hidden when the workspace is active or the user is not its admin. */
export const canDeleteWorkspace = (workspace: Pick<Workspace, 'role' | 'status'>): boolean =>
  workspace.role === 'admin' && workspace.status !== 'active';
