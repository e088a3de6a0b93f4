import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Debian's Chromium, which the browser tests drive (test tools never download a browser of their own). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags every automated run gives Chromium (the end-to-end tests and the browser benchmarks): no sandbox inside
 * containers, no GPU, and none of the background traffic and first-run screens of a fresh profile.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Makes sure Chromium is there: installs Debian's package when running as root, otherwise
 * stops with a message saying what to install. Returns the executable's path.
 */
export function ensureChromium(): string {
  if (fs.existsSync(chromiumPath)) return chromiumPath;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && !process.env.CHROMIUM_PATH) {
    console.log('Chromium is missing: installing Debian’s chromium package…');
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (fs.existsSync(chromiumPath)) return chromiumPath;
  }
  console.error(
    `The browser tests need Chromium at ${chromiumPath}, and it is not there.\n` +
      'Install it with `sudo apt-get install chromium` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  );
  process.exit(1);
}
