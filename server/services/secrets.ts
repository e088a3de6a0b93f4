import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, type Config } from '../config';

/**
 * Secrets at rest (provider API keys, client secrets, webhook signing secrets): AES-256-GCM with a random 96-bit
 * nonce per value, and the row the value belongs to as associated data, so a sealed value copied into another row
 * or workspace does not open there. Stored as `v1:<base64 nonce|tag|ciphertext>`.
 */
export interface SecretBox {
  /** Encrypts `plain` for the record named by `context` (e.g. `integration:12:klaviyo`). */
  seal(plain: string, context: string): string;
  /** Decrypts what seal gave for the same context; throws when the value was altered or belongs elsewhere. */
  open(sealed: string, context: string): string;
}

const VERSION = 'v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Where the embedded default keeps its generated key, beside its database. */
export const SECRETS_KEY_FILE = 'secrets.key';

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new ConfigError('Invalid configuration: SECRETS_KEY must be 32 bytes');
  return {
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), encrypted]).toString('base64');
    },
    open(sealed, context) {
      if (!sealed.startsWith(VERSION)) throw new Error('Not a sealed secret');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** SECRETS_KEY as 64 hex digits or base64 of 32 bytes. */
export function parseSecretsKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new ConfigError('Invalid configuration: SECRETS_KEY must be 32 bytes, as 64 hex digits or base64');
  }
  return key;
}

/**
 * The key: SECRETS_KEY when set. Without it, a production server on an external database refuses to start (a key
 * generated on one server would not open what another wrote, and losing it loses every secret); the embedded
 * default and development generate one into the data directory on first start (readable by the owner only).
 */
export async function openSecretBox(config: Config): Promise<SecretBox> {
  if (config.SECRETS_KEY) return createSecretBox(parseSecretsKey(config.SECRETS_KEY));
  if (config.NODE_ENV === 'production' && config.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY: required in production with DATABASE_URL, 32 random bytes as 64 hex ' +
        'digits (e.g. `openssl rand -hex 32`); it encrypts integration credentials and webhook secrets',
    );
  }
  const file = path.join(config.dataDir, SECRETS_KEY_FILE);
  await fs.mkdir(config.dataDir, { recursive: true });
  await publishKeyFile(file);
  return createSecretBox(parseSecretsKey(await fs.readFile(file, 'utf8')));
}

/**
 * Writes a new key under `file` unless one is there. The key is written whole to a file of this start's own, then
 * linked under the shared name: a link is atomic and fails when the name exists. So processes starting together on
 * a fresh data directory all read the one key that was published first, never a file another is still writing
 * (which a write straight to the shared name would show them, empty, until its data lands).
 */
async function publishKeyFile(file: string): Promise<void> {
  if (await exists(file)) return;
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await fs.writeFile(own, randomBytes(KEY_BYTES).toString('hex'), { flag: 'wx', mode: 0o600 });
  try {
    await fs.link(own, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(own, { force: true });
  }
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
