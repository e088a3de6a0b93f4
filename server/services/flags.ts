import { asc, eq } from 'drizzle-orm';
import { userFlags, workspaceFlags } from '../db/schema';
import type { Executor } from './db';

/** Feature flags switched on for a workspace, sorted (e.g. 'list_members', 'engagement'). */
export async function getWorkspaceFlags(db: Executor, workspaceId: number): Promise<string[]> {
  const rows = await db
    .select({ flag: workspaceFlags.flag })
    .from(workspaceFlags)
    .where(eq(workspaceFlags.workspaceId, workspaceId))
    .orderBy(asc(workspaceFlags.flag));
  return rows.map((row) => row.flag);
}

/** Feature flags switched on for a user, sorted. */
export async function getUserFlags(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .select({ flag: userFlags.flag })
    .from(userFlags)
    .where(eq(userFlags.userId, userId))
    .orderBy(asc(userFlags.flag));
  return rows.map((row) => row.flag);
}

export async function setWorkspaceFlags(db: Executor, workspaceId: number, flags: readonly string[]): Promise<void> {
  if (flags.length === 0) return;
  await db
    .insert(workspaceFlags)
    .values(flags.map((flag) => ({ workspaceId, flag })))
    .onConflictDoNothing();
}
