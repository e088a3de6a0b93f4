import { useParams } from 'react-router-dom';
import { type Me } from '../../contracts/me';
import { type Workspace } from '../../contracts/workspaces';
import { useGetMeQuery } from '../auth/authApi';

/** The signed-in user; the route guards render signed-in pages only once it is loaded. */
export function useCurrentUser(): Me {
  const { data } = useGetMeQuery();
  if (!data) throw new Error('The signed-in user is not loaded');
  return data;
}

/** The workspace the URL names; the route guards have already checked the user belongs to it. */
export function useCurrentWorkspace(): Workspace {
  const user = useCurrentUser();
  const { workspaceId } = useParams();
  const workspace = user.workspaces.find((candidate) => String(candidate.id) === workspaceId);
  if (!workspace) throw new Error('The workspace of this page is not one of the user’s');
  return workspace;
}

/** Workspaces sorted by display name, as the switcher lists them (spec 1 §2.5). */
export const sortedWorkspaces = (workspaces: readonly Workspace[]): Workspace[] =>
  [...workspaces].sort((a, b) => a.displayName.localeCompare(b.displayName) || a.id - b.id);

/** Spec 1 §9: the switcher is searchable above 10 workspaces and disabled below 2. */
export const SWITCHER_SEARCH_ABOVE = 10;
export const SWITCHER_MIN = 2;
