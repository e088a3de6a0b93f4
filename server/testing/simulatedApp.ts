import { START_TIMEOUT_MS } from '../../test/timeouts';
import type { Config } from '../config';
import { buildProviderSimulator, simulatorUrls } from '../integrations/simulator';
import { createTestApp, startedTestApp, type TestApp } from './testApp';

export interface SimulatedApp {
  t: TestApp;
  /** The simulator's http:// address: tests point a provider setting elsewhere below it to make it fail. */
  origin: string;
  close(): Promise<void>;
}

/** A test app whose integrations all call a provider simulator listening on a loopback port of its own. */
export async function createSimulatedApp(overrides: Partial<Config> = {}): Promise<SimulatedApp> {
  const simulator = await buildProviderSimulator();
  try {
    const origin = await simulator.listen({ port: 0, host: '127.0.0.1' });
    const t = await createTestApp({ ...simulatorUrls(origin), ...overrides });
    return {
      t,
      origin,
      async close() {
        await t.close();
        await simulator.close();
      },
    };
  } catch (error) {
    await simulator.close();
    throw error;
  }
}

/** The simulated app of the surrounding describe block: started before its tests and closed after them. */
export function withSimulatedApp(): { t: TestApp; origin: () => string } {
  let current: SimulatedApp | undefined;
  beforeAll(async () => {
    current = await createSimulatedApp();
  }, START_TIMEOUT_MS);
  afterAll(() => current?.close(), START_TIMEOUT_MS);
  return {
    t: startedTestApp(() => current?.t),
    origin: () => {
      if (!current) throw new Error('the simulated app did not start');
      return current.origin;
    },
  };
}
