import { and, count, eq, gt } from 'drizzle-orm';
import {
  REPORTS_PER_WORKSPACE_REACHED,
  UPLOADS_PER_DAY_REACHED,
  WORKSPACES_PER_DAY_REACHED,
} from '../../src/contracts/common';
import { TARGETS_PER_WORKSPACE_REACHED } from '../../src/contracts/targets';
import { reports, targets, users, workspaceAssets, workspaces } from '../db/schema';
import { forbidden, HttpError } from '../http/errors';
import type { Transaction } from './db';

const DAY_MS = 24 * 3600 * 1000;
const dayAgo = () => new Date(Date.now() - DAY_MS);
const tooMany = (message: string) => new HttpError(429, message);

/**
 * Bounds on what one account creates; the numbers come from the configuration (LIMIT_* in server/config.ts).
 * Each check locks the row the count belongs to (the account or the workspace) until the transaction ends, so
 * concurrent creates are counted one after the other and never pass the limit together.
 */
export async function checkWorkspacesPerDay(tx: Transaction, userId: number, max: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [row] = await tx
    .select({ n: count() })
    .from(workspaces)
    .where(and(eq(workspaces.createdBy, userId), gt(workspaces.createdAt, dayAgo())));
  if (Number(row.n) >= max) throw tooMany(WORKSPACES_PER_DAY_REACHED);
}

export async function checkReportsPerWorkspace(tx: Transaction, workspaceId: number, max: number): Promise<void> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  const [row] = await tx.select({ n: count() }).from(reports).where(eq(reports.workspaceId, workspaceId));
  if (Number(row.n) >= max) throw forbidden(REPORTS_PER_WORKSPACE_REACHED);
}

export async function checkUploadsPerDay(tx: Transaction, workspaceId: number, max: number): Promise<void> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  const [row] = await tx
    .select({ n: count() })
    .from(workspaceAssets)
    .where(and(eq(workspaceAssets.workspaceId, workspaceId), gt(workspaceAssets.createdAt, dayAgo())));
  if (Number(row.n) >= max) throw tooMany(UPLOADS_PER_DAY_REACHED);
}

export async function checkTargetsPerWorkspace(tx: Transaction, workspaceId: number, max: number): Promise<void> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
  const [row] = await tx.select({ n: count() }).from(targets).where(eq(targets.workspaceId, workspaceId));
  if (Number(row.n) >= max) throw forbidden(TARGETS_PER_WORKSPACE_REACHED);
}
