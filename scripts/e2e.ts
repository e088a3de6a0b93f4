import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './chromium';
import { freePort } from './freePort';

/**
 * Runs the Playwright suite against the production build served by the real server, on a free port,
 * with a fresh embedded database. Extra arguments go to Playwright (e.g. a spec file or --grep).
 */
async function main() {
  if (!fs.existsSync(path.resolve('dist/index.html'))) {
    console.error('No production build found: run `npm run build` first (npm test does).');
    process.exit(1);
  }
  const chromium = ensureChromium();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-e2e-'));
  const result = spawnSync(
    process.execPath,
    [require.resolve('@playwright/test/cli'), 'test', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, CHROMIUM_PATH: chromium, E2E_PORT: String(port), E2E_DATA_DIR: dataDir },
    },
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}

void main();
