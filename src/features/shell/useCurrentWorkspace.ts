import { createSelector } from '@reduxjs/toolkit';
import { useParams } from 'react-router-dom';
import { workspaceIdParamsSchema } from '../../contracts/common';
import { type Me } from '../../contracts/me';
import { type Workspace } from '../../contracts/workspaces';
import { useAppSelector } from '../../store/hooks';
import type { RootState } from '../../store/store';
import { authApi, useGetMeQuery } from '../auth/authApi';

const selectMe = authApi.endpoints.getMe.select();

/** The signed-in user's workspace with this id, if it is one of theirs. */
export const selectWorkspaceOfMe = createSelector(
  [selectMe, (_state: RootState, workspaceId: number) => workspaceId],
  ({ data }, workspaceId): Workspace | undefined => data?.workspaces.find((candidate) => candidate.id === workspaceId),
);

/** That workspace's locale as Intl reads it (en_GB → en-GB); undefined leaves the browser's. */
export const selectWorkspaceLocale = createSelector([selectWorkspaceOfMe], (workspace) =>
  workspace?.locale.replace('_', '-'),
);

/** The signed-in user; the route guards render signed-in pages only once it is loaded. */
export function useCurrentUser(): Me {
  const { data } = useGetMeQuery();
  if (!data) throw new Error('The signed-in user is not loaded');
  return data;
}

/**
 * The workspace id of a page's URL, in the spec's words when the URL has none or a malformed one (spec 1 §8,
 * spec 3 §5): a page that reads it outside a workspace route is a programming error its error boundary shows.
 */
export function workspaceIdFromUrl(param: string | undefined): number {
  if (param === undefined || param === '') throw new Error('workspaceId was not found in url.');
  const parsed = workspaceIdParamsSchema.shape.workspaceId.safeParse(param);
  if (!parsed.success) throw new Error('Invalid workspace id');
  return parsed.data;
}

/** The workspace the URL names; the route guards have already checked the user belongs to it. */
export function useCurrentWorkspace(): Workspace {
  const id = workspaceIdFromUrl(useParams().workspaceId);
  useCurrentUser();
  const workspace = useAppSelector((state) => selectWorkspaceOfMe(state, id));
  if (!workspace) throw new Error('The workspace of this page is not one of the user’s');
  return workspace;
}

/** Workspaces sorted by display name, as the switcher lists them (spec 1 §2.5). */
export const sortedWorkspaces = (workspaces: readonly Workspace[]): Workspace[] =>
  [...workspaces].sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id - b.id);

/** Spec 1 §9: the switcher is searchable above 10 workspaces and disabled below 2. */
export const SWITCHER_SEARCH_ABOVE = 10;
export const SWITCHER_MIN = 2;
