import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import {
  INTEGRATION_TYPES,
  type Integration,
  type IntegrationType,
  type IntegrationUnit,
} from '../../src/contracts/integrations';
import { integrations, pushAccounts } from '../db/schema';
import type { Executor } from './db';
import type { SecretBox } from './secrets';

/** The record a sealed credential belongs to: a sealed value copied to another workspace or type does not open. */
const credentialContext = (workspaceId: number, type: IntegrationType) => `integration:${workspaceId}:${type}`;
const pushContext = (workspaceId: number, kind: 'gcs' | 'sftp') => `push-account:${workspaceId}:${kind}`;

const columns = { id: integrations.id, type: integrations.type, name: integrations.name, units: integrations.units };
const toIntegration = (row: { id: number; type: string; name: string; units: IntegrationUnit[] }): Integration => ({
  ...row,
  type: row.type as IntegrationType,
});

export async function listIntegrations(db: Executor, workspaceId: number): Promise<Integration[]> {
  const rows = await db
    .select(columns)
    .from(integrations)
    .where(eq(integrations.workspaceId, workspaceId))
    .orderBy(asc(integrations.id));
  return rows.map(toIntegration);
}

export async function findIntegration(
  db: Executor,
  workspaceId: number,
  where: { id: number } | { type: IntegrationType },
): Promise<Integration | null> {
  const match = 'id' in where ? eq(integrations.id, where.id) : eq(integrations.type, where.type);
  const [row] = await db
    .select(columns)
    .from(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), match));
  return row ? toIntegration(row) : null;
}

/**
 * Creates or replaces the workspace's integration of `type` with sealed `credentials` and the units the provider
 * listed, in one statement: a second connect of the same type updates the row instead of adding one.
 */
export async function saveIntegration(
  db: Executor,
  secrets: SecretBox,
  workspaceId: number,
  type: IntegrationType,
  credentials: Record<string, string> | null,
  units: IntegrationUnit[],
): Promise<Integration> {
  const sealed = credentials && secrets.seal(JSON.stringify(credentials), credentialContext(workspaceId, type));
  const name = INTEGRATION_TYPES[type].label;
  const [row] = await db
    .insert(integrations)
    .values({ workspaceId, type, name, credentials: sealed, units })
    .onConflictDoUpdate({
      target: [integrations.workspaceId, integrations.type],
      set: { credentials: sealed, units },
    })
    .returning(columns);
  return toIntegration(row);
}

export async function updateUnits(
  db: Executor,
  workspaceId: number,
  integrationId: number,
  units: IntegrationUnit[],
): Promise<Integration | null> {
  const [row] = await db
    .update(integrations)
    .set({ units })
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.id, integrationId)))
    .returning(columns);
  return row ? toIntegration(row) : null;
}

/** The credentials saved with an integration, opened for a provider call; null when none were saved. */
export async function openCredentials<T extends Record<string, string>>(
  db: Executor,
  secrets: SecretBox,
  workspaceId: number,
  integration: Integration,
): Promise<T | null> {
  const [row] = await db
    .select({ credentials: integrations.credentials })
    .from(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.id, integration.id)));
  if (!row?.credentials) return null;
  return JSON.parse(secrets.open(row.credentials, credentialContext(workspaceId, integration.type))) as T;
}

/** Removes the integration and its sealed credentials with it; false when the workspace has no such integration. */
export async function removeIntegration(db: Executor, workspaceId: number, integrationId: number): Promise<boolean> {
  const deleted = await db
    .delete(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.id, integrationId)))
    .returning({ id: integrations.id });
  return deleted.length > 0;
}

export interface BucketInfo {
  name: string;
  key_json: string;
}
export interface SftpAccount {
  username: string;
  password: string;
}

function generatePushAccount(workspaceId: number, kind: 'gcs' | 'sftp'): BucketInfo | SftpAccount {
  const suffix = randomBytes(4).toString('hex');
  if (kind === 'sftp')
    return { username: `ws${workspaceId}-${suffix}`, password: randomBytes(24).toString('base64url') };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = `openrate-ws${workspaceId}-${suffix}`;
  const key = {
    type: 'service_account',
    client_email: `${name}@openrate-push.iam.gserviceaccount.com`,
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  return { name, key_json: JSON.stringify(key) };
}

/**
 * The workspace's push credentials of `kind`: generated on the first request, then the same ones every time.
 * A concurrent first request loses the insert race and reads the winner's row.
 */
export async function pushAccount(
  db: Executor,
  secrets: SecretBox,
  workspaceId: number,
  kind: 'gcs' | 'sftp',
): Promise<BucketInfo | SftpAccount> {
  const read = async () => {
    const [row] = await db
      .select({ sealed: pushAccounts.sealed })
      .from(pushAccounts)
      .where(and(eq(pushAccounts.workspaceId, workspaceId), eq(pushAccounts.kind, kind)));
    return row
      ? (JSON.parse(secrets.open(row.sealed, pushContext(workspaceId, kind))) as BucketInfo | SftpAccount)
      : null;
  };
  const existing = await read();
  if (existing) return existing;
  const sealed = secrets.seal(JSON.stringify(generatePushAccount(workspaceId, kind)), pushContext(workspaceId, kind));
  await db.insert(pushAccounts).values({ workspaceId, kind, sealed }).onConflictDoNothing();
  return (await read())!;
}

/**
 * Changes an integration's units under a row lock (pass the transaction of the change): concurrent adds and removes
 * run one after the other and each keeps the other's result. Null when the workspace has no such integration.
 */
export async function changeUnits(
  tx: Executor,
  workspaceId: number,
  integrationId: number,
  change: (units: IntegrationUnit[]) => IntegrationUnit[],
): Promise<Integration | null> {
  const [row] = await tx
    .select({ units: integrations.units })
    .from(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.id, integrationId)))
    .for('update');
  return row ? updateUnits(tx, workspaceId, integrationId, change(row.units)) : null;
}
