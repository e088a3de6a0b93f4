import { and, asc, eq, sql } from 'drizzle-orm';
import { type Annotation, type AnnotationBody } from '../../src/contracts/annotations';
import { annotations, users } from '../db/schema';
import { eqWhenGiven, type Executor } from './db';

/** A workspace's annotations, oldest first (or its one annotation), with who wrote each. */
export async function listAnnotations(db: Executor, workspaceId: number, annotationId?: number): Promise<Annotation[]> {
  const rows = await db
    .select({
      id: annotations.id,
      workspaceId: annotations.workspaceId,
      severity: annotations.severity,
      message: annotations.message,
      dateStart: annotations.dateStart,
      dateEnd: annotations.dateEnd,
      createdAt: annotations.createdAt,
      modifiedAt: annotations.modifiedAt,
      createdById: annotations.createdById,
      createdByName: users.name,
      createdByEmail: users.email,
    })
    .from(annotations)
    .leftJoin(users, eq(users.id, annotations.createdById))
    .where(and(eq(annotations.workspaceId, workspaceId), eqWhenGiven(annotations.id, annotationId)))
    .orderBy(asc(annotations.dateStart), asc(annotations.id));
  return rows.map((row) => ({
    id: row.id,
    workspace_id: row.workspaceId,
    severity: row.severity,
    message: row.message,
    date_start: row.dateStart,
    date_end: row.dateEnd,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
    created_by_id: row.createdById,
    created_by_name: row.createdByName,
    created_by_email: row.createdByEmail,
  }));
}

/** Adds an annotation written by `userId`; answers it as the list shows it. */
export async function createAnnotation(
  db: Executor,
  workspaceId: number,
  userId: number,
  body: AnnotationBody,
): Promise<Annotation> {
  const { severity, message, date_start: dateStart, date_end: dateEnd } = body;
  const [created] = await db
    .insert(annotations)
    .values({ workspaceId, severity, message, dateStart, dateEnd, createdById: userId })
    .returning({ id: annotations.id });
  const [annotation] = await listAnnotations(db, workspaceId, created.id);
  return annotation;
}

/** Changes an annotation of the workspace; undefined when it has none of that id. */
export async function updateAnnotation(
  db: Executor,
  workspaceId: number,
  annotationId: number,
  body: AnnotationBody,
): Promise<Annotation | undefined> {
  // The path decides which annotation changes; ids in the body are ignored, never written.
  const { severity, message, date_start: dateStart, date_end: dateEnd } = body;
  const updated = await db
    .update(annotations)
    .set({ severity, message, dateStart, dateEnd, modifiedAt: sql`now()` })
    .where(and(eq(annotations.id, annotationId), eq(annotations.workspaceId, workspaceId)))
    .returning({ id: annotations.id });
  if (updated.length === 0) return undefined;
  const [annotation] = await listAnnotations(db, workspaceId, annotationId);
  return annotation;
}

/** Deletes an annotation of the workspace; false when it has none of that id. */
export async function deleteAnnotation(db: Executor, workspaceId: number, annotationId: number): Promise<boolean> {
  const deleted = await db
    .delete(annotations)
    .where(and(eq(annotations.id, annotationId), eq(annotations.workspaceId, workspaceId)))
    .returning({ id: annotations.id });
  return deleted.length > 0;
}
