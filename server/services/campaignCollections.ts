import { and, asc, eq, sql } from 'drizzle-orm';
import { type CampaignCollection, type CampaignCollectionBody } from '../../src/contracts/campaignCollections';
import { campaignCollections } from '../db/schema';
import { notFound } from '../http/errors';
import type { Executor } from './db';

type Row = typeof campaignCollections.$inferSelect;

const toCollection = (row: Row): CampaignCollection => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUpdatedAt: row.lastUpdatedAt.toISOString(),
  rules: row.rules,
  baselineSet: row.baselineSet,
});

export async function listCampaignCollections(db: Executor, workspaceId: number): Promise<CampaignCollection[]> {
  const rows = await db
    .select()
    .from(campaignCollections)
    .where(eq(campaignCollections.workspaceId, workspaceId))
    .orderBy(asc(campaignCollections.name), asc(campaignCollections.id));
  return rows.map(toCollection);
}

/**
 * Creates or replaces the collection `id` of a workspace in one statement. An id another workspace uses
 * is not found (404): the upsert only updates a row of the same workspace and inserts nothing then.
 */
export async function putCampaignCollection(
  db: Executor,
  workspaceId: number,
  id: string,
  body: CampaignCollectionBody,
): Promise<CampaignCollection> {
  const values = { name: body.name, rules: body.rules, baselineSet: body.baselineSet };
  const [row] = await db
    .insert(campaignCollections)
    .values({ id, workspaceId, ...values })
    .onConflictDoUpdate({
      target: campaignCollections.id,
      set: { ...values, lastUpdatedAt: sql`now()` },
      setWhere: eq(campaignCollections.workspaceId, workspaceId),
    })
    .returning();
  if (!row) throw notFound();
  return toCollection(row);
}

export async function deleteCampaignCollection(db: Executor, workspaceId: number, id: string): Promise<void> {
  const deleted = await db
    .delete(campaignCollections)
    .where(and(eq(campaignCollections.id, id), eq(campaignCollections.workspaceId, workspaceId)))
    .returning({ id: campaignCollections.id });
  if (deleted.length === 0) throw notFound();
}
