import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServer } from '../bench/benchServer';
import { freePort } from '../scripts/freePort';
import { START_TIMEOUT_MS } from '../test/timeouts';
import { openAcme, reportPathByTitle } from './support';

/**
 * Issue 20: /login's first load carries only what it draws. Its icon comes with the bundle; the icons and
 * Blueprint's rules of later screens arrive with their routes, and still draw.
 */

test.describe('/login as deployed with Google sign-in', () => {
  let server: ChildProcess | undefined;
  let dataDir: string | undefined;
  let baseURL = '';

  test.beforeAll(async () => {
    test.setTimeout(START_TIMEOUT_MS);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-e2e-icons-'));
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    // Google sign-in configured, so /login draws its Google button with an icon (no request reaches Google).
    server = await startServer(dataDir, port, { GOOGLE_CLIENT_ID: 'e2e', GOOGLE_CLIENT_SECRET: 'e2e' });
  });

  test.afterAll(() => {
    server?.kill();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("the Google button's icon is drawn from the first load: no icon file, icon font or later style sheet", async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${baseURL}/login`);

    const google = page.getByRole('button', { name: 'Continue with Google' });
    await expect(google).toBeVisible();
    await expect(google.locator('.bp6-icon-log-in svg path').first()).toHaveAttribute('d', /^M/i);
    await page.waitForLoadState('networkidle');
    expect(requested.filter((pathname) => /^\/icons\/|\.(woff2?|ttf|eot)$|blueprint-later/.test(pathname))).toEqual([]);
  });
});

test('a dashboard draws an icon fetched on demand and the components whose styles load with its route', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const iconFiles: string[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/icons/') && response.ok()) iconFiles.push(pathname);
  });
  const workspaceId = await openAcme(page);
  await page.goto(await reportPathByTitle(page, workspaceId, 'Default Dashboard'));

  // The date range button's calendar is not in the first load: its paths come from the build's icon file.
  const range = page.locator('.or-range-button').first();
  await expect(range.locator('.bp6-icon-calendar svg path').first()).toHaveAttribute('d', /^M/i);
  expect(iconFiles.some((file) => file.startsWith('/icons/16px/calendar.'))).toBe(true);

  // The report tab's menu is Blueprint's, laid out by the rules that load with the route.
  await page.getByRole('tab', { name: 'Default Dashboard', exact: true }).click({ button: 'right' });
  const closeOthers = page.getByRole('menuitem', { name: 'Close others' });
  await expect(closeOthers).toBeVisible();
  await expect(closeOthers).toHaveCSS('display', 'flex');
  // Those rules sit between Blueprint's first part and the app's own, as if Blueprint's were one sheet.
  const sheets = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
      (link) => new URL(link.href).pathname,
    ),
  );
  const order = ['/framework.', '/blueprint-later.', '/main.'].map((name) =>
    sheets.findIndex((sheet) => sheet.startsWith(name)),
  );
  expect(order.every((index) => index >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
});
