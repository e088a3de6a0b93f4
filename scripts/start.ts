import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { localPublicUrl } from '../server/config';

/** What the production build is made from: when any of it is newer than the build, build again. */
const SOURCES = [
  'src',
  'public',
  'webpack.config.ts',
  'package-lock.json',
  // The build's own plug-ins and loaders.
  'scripts/blueprintCss.ts',
  'scripts/iconPaths.ts',
  'scripts/precompress.ts',
];
const BUILD_MARKER = path.resolve('dist/index.html');

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function buildIsCurrent(): boolean {
  const built = fs.statSync(BUILD_MARKER, { throwIfNoEntry: false });
  if (!built) return false;
  return SOURCES.every((source) => newestMtime(path.resolve(source)) <= built.mtimeMs);
}

if (!buildIsCurrent()) {
  console.log('Building the web application (production)…');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', require.resolve('webpack-cli/bin/cli.js'), '--mode', 'production'],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.env.NODE_ENV ??= 'production';
// Production needs the address users reach the product on (links in e-mails, allowed Host names). A fresh
// clone is reached on this machine, so that is the default here, said out loud.
if (!process.env.PUBLIC_URL) {
  const local = localPublicUrl(process.env);
  if (local) {
    process.env.PUBLIC_URL = local;
    console.log(`PUBLIC_URL is not set: using ${local} for links in e-mails (set PUBLIC_URL to the public address).`);
  }
}
// The server handles its own signals and shutdown.
void import('../server/main');
