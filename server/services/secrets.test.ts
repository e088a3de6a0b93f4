import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { createSecretBox, openSecretBox, SECRETS_KEY_FILE } from './secrets';

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function configFor(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-secrets-'));
  tempDirs.push(dataDir);
  return loadConfig({ PUBLIC_URL: 'https://openrate.example.com', ...env }, { dataDir });
}

describe('secrets at rest', () => {
  const box = createSecretBox(Buffer.alloc(32, 7));

  it('opens what it sealed, and the stored form does not contain the secret', () => {
    const sealed = box.seal('pk_live_abc123', 'integration:1:klaviyo');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('pk_live_abc123');
    expect(box.open(sealed, 'integration:1:klaviyo')).toBe('pk_live_abc123');
    // A fresh nonce each time: equal secrets are not recognisable in the database.
    expect(box.seal('pk_live_abc123', 'integration:1:klaviyo')).not.toBe(sealed);
  });

  it('refuses a value moved to another record, altered, or sealed with another key', () => {
    const sealed = box.seal('secret', 'integration:1:klaviyo');
    expect(() => box.open(sealed, 'integration:2:klaviyo')).toThrow();
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-1);
    expect(() => box.open(altered, 'integration:1:klaviyo')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'integration:1:klaviyo')).toThrow();
  });

  it('uses SECRETS_KEY when set', async () => {
    const key = 'ab'.repeat(32);
    const sealed = createSecretBox(Buffer.from(key, 'hex')).seal('x', 'c');
    const opened = await openSecretBox(configFor({ SECRETS_KEY: key, NODE_ENV: 'production' }));
    expect(opened.open(sealed, 'c')).toBe('x');
  });

  it('rejects a SECRETS_KEY that is not 32 bytes', async () => {
    await expect(openSecretBox(configFor({ SECRETS_KEY: 'short', NODE_ENV: 'test' }))).rejects.toThrow(ConfigError);
  });

  it('generates a key into the data directory once, readable by the owner only, and reuses it', async () => {
    const config = configFor({ NODE_ENV: 'production' });
    const sealed = (await openSecretBox(config)).seal('kept', 'c');
    const file = path.join(config.dataDir, SECRETS_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await openSecretBox(config)).open(sealed, 'c')).toBe('kept');
  });

  it('gives processes starting together on a fresh data directory one complete key, however slow the disk', async () => {
    const config = configFor({ NODE_ENV: 'production' });
    // A file's data lands some time after the file appears (a busy disk, a process descheduled between the two):
    // a start must never read another start's key in between.
    const write = fsPromises.writeFile;
    const slowWrite = jest.spyOn(fsPromises, 'writeFile').mockImplementation(async (file, data, options) => {
      await write(file, '', options);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await write(file, data, { ...(typeof options === 'object' ? options : {}), flag: 'w' });
    });
    try {
      const first = openSecretBox(config);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const boxes = await Promise.all([first, openSecretBox(config), openSecretBox(config)]);
      const sealed = boxes[0].seal('shared', 'c');
      for (const opened of boxes) expect(opened.open(sealed, 'c')).toBe('shared');
    } finally {
      slowWrite.mockRestore();
    }
    // Nothing of the starts is left beside the key.
    expect(fs.readdirSync(config.dataDir)).toEqual([SECRETS_KEY_FILE]);
    expect(fs.statSync(path.join(config.dataDir, SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('refuses to start in production on an external database without SECRETS_KEY', async () => {
    const config = configFor({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db.example.com/openrate' });
    await expect(openSecretBox(config)).rejects.toThrow(/SECRETS_KEY: required in production/);
  });
});
