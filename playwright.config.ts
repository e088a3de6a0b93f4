import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/chromium';

// scripts/e2e.ts chooses a free port and a fresh data directory, then runs Playwright.
const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    // As a user who asked their system for less motion: the app then has no transitions (src/app/app.css), so a click
    // never lands on a dialog still scaling in (it once missed its button: pressed on it, released beside it).
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [...chromiumArgs, '--disable-quic'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      // 'test' keeps the development mail outbox (GET /api/dev/outbox) that the sign-in specs read.
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Mailed links and the allowed Host (localhost on the same port is accepted too).
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR ?? './var/e2e',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // Every spec signs in from the same address; the per-IP limit must not end the suite.
      RATE_LIMIT_PER_IP: '1000',
      RATE_LIMIT_PER_EMAIL: '100',
      // Integrations connect to the local provider simulator (server/integrations/simulator).
      INTEGRATIONS_SIMULATOR: 'true',
    },
  },
});
