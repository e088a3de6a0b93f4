/** @jest-environment ./test/nodeEnvironment.js */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import NodeEnvironmentWithTimers from './nodeEnvironment';

/** A test file's environment, as Jest makes one for each file. */
function environment() {
  const projectConfig = { testEnvironmentOptions: {}, globals: {} };
  return new NodeEnvironmentWithTimers({ projectConfig, globalConfig: {} } as never, {} as never);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the tests’ Node environment', () => {
  it('ends the timers a test file left pending when the file ends', async () => {
    const env = environment();
    const fired: string[] = [];
    Object.assign(env.global, { fired });
    vm.runInContext(
      'setTimeout(() => fired.push("timeout"), 30); setInterval(() => fired.push("interval"), 30);',
      env.getVmContext()!,
    );
    await env.teardown();
    await wait(120);
    expect(fired).toEqual([]);
  });

  it('still runs timers while the file runs, and lets them be cleared', async () => {
    const env = environment();
    const fired: string[] = [];
    Object.assign(env.global, { fired });
    vm.runInContext(
      'setTimeout(() => fired.push("kept"), 10); clearTimeout(setTimeout(() => fired.push("cleared"), 10));',
      env.getVmContext()!,
    );
    await wait(80);
    await env.teardown();
    expect(fired).toEqual(['kept']);
  });

  it('is the one every test file under src and test that runs in Node asks for', () => {
    const root = path.join(__dirname, '..');
    const inNode = ['src', 'test']
      .flatMap((dir) =>
        fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file)),
      )
      .filter((file) => /\.test\.tsx?$/.test(file))
      .filter((file) => /^\/\*\* @jest-environment node \*\//m.test(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(inNode).toEqual([]);
  });
});
