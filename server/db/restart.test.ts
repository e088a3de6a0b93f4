import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/freePort';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { DATABASE_TIMEOUT_MS } from './client';

/**
 * Fault test: a real server process on its own throwaway PostgreSQL cluster, with PostgreSQL restarted and stopped
 * under it. Runs with the PostgreSQL pass of the server suite (DATABASE_URL set) when the PostgreSQL server
 * programs are installed; the shared database of DATABASE_URL is never touched.
 */

const PROGRAMS = ['initdb', 'pg_ctl'];

/** The directory holding initdb and pg_ctl: PG_BIN, pg_config --bindir, the newest /usr/lib/postgresql/N/bin, PATH. */
function findPgBin(): string | null {
  const has = (dir: string) => PROGRAMS.every((name) => fs.existsSync(path.join(dir, name)));
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: 'pipe' }).trim());
  } catch {
    // pg_config is missing (it comes with the client development package): look elsewhere.
  }
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((name) => /^\d+$/.test(name));
    versions.sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(debian, version, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find(has) ?? null;
}

/** PostgreSQL refuses to run as root: then its programs run as the `postgres` OS user. */
const runAsPostgres = process.getuid?.() === 0;

function skipReason(pgBin: string | null): string | null {
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set (it runs in the PostgreSQL pass of the server suite)';
  if (!pgBin) return 'initdb and pg_ctl were not found (set PG_BIN, or install the PostgreSQL server package)';
  if (runAsPostgres) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' });
    } catch {
      return 'running as root, and there is no postgres OS user to run PostgreSQL as';
    }
  }
  return null;
}

const pgBin = findPgBin();
const reason = skipReason(pgBin);
const describeWithPostgres = reason ? describe.skip : describe;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The session route with a made-up cookie: one session lookup in the database, 200 signed out when it answers. */
async function sessionStatus(base: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}/session`, {
    headers: { cookie: `openrate_session=${'x'.repeat(43)}` },
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: await res.json(), ms: performance.now() - started };
}

/** Asks until the server answers 200 again; answers how long that took. Throws after `limitMs`. */
async function untilServing(base: string, limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const res = await sessionStatus(base).catch(() => null);
    if (res?.status === 200) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not serving again after ${limitMs} ms`);
    await sleep(100);
  }
}

describeWithPostgres(`PostgreSQL restarting under a running server${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let dir: string;
  let dataDir: string;
  let child: ChildProcess | undefined;
  let base: string;
  let pgOptions: string;
  let exited = false;

  const pg = (program: string, args: string[]) => {
    const file = path.join(pgBin!, program);
    const [command, argv] = runAsPostgres ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    // The postmaster pg_ctl starts keeps the descriptors it inherits: never a pipe we would wait on (-l logs).
    execFileSync(command, argv, { stdio: 'ignore', timeout: START_TIMEOUT_MS });
  };
  const pgCtl = (...args: string[]) => pg('pg_ctl', ['-D', dataDir, '-w', '-t', '60', ...args]);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-fault-'));
    dataDir = path.join(dir, 'data');
    if (runAsPostgres) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
      fs.chownSync(dir, uid, gid);
    }
    pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
    const pgPort = await freePort();
    // Sockets in the cluster's own directory; fsync off: the cluster is thrown away.
    pgOptions = `-p ${pgPort} -k ${dir} -h 127.0.0.1 -c fsync=off`;
    pgCtl('-l', path.join(dir, 'postgres.log'), '-o', pgOptions, 'start');

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: {
        ...process.env,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
        HOST: '127.0.0.1',
        PORT: String(port),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        DATA_DIR: path.join(dir, 'var'),
        STATIC_DIR: path.join(dir, 'no-build'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('exit', () => (exited = true));
    await untilServing(base, START_TIMEOUT_MS - 10_000);
  }, START_TIMEOUT_MS * 2);

  afterAll(async () => {
    if (child && !exited) {
      let timer: NodeJS.Timeout | undefined;
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
      clearTimeout(timer);
      if (!exited) child.kill('SIGKILL');
    }
    if (dataDir && fs.existsSync(path.join(dataDir, 'postmaster.pid'))) {
      try {
        pgCtl('-m', 'immediate', 'stop');
      } catch {
        // Already stopped.
      }
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, START_TIMEOUT_MS);

  it(
    'serves again within 5 s of pg_ctl restart, in the same process',
    async () => {
      const pid = child!.pid;
      pgCtl('-l', path.join(dir, 'postgres.log'), '-m', 'fast', 'restart');
      const tookMs = await untilServing(base, START_TIMEOUT_MS / 2);
      expect(tookMs).toBeLessThan(5_000);
      expect(exited).toBe(false);
      expect(child!.pid).toBe(pid);
    },
    START_TIMEOUT_MS * 2,
  );

  it(
    'answers 503 quickly while PostgreSQL is stopped, and recovers by itself when it is back',
    async () => {
      pgCtl('-m', 'fast', 'stop');
      // A while without a database: every request is refused at once, none waits for the connection timeout.
      for (let i = 0; i < 5; i++) {
        const res = await sessionStatus(base);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: 'Service unavailable' });
        expect(res.ms).toBeLessThan(DATABASE_TIMEOUT_MS);
        await sleep(400);
      }
      expect(exited).toBe(false);

      pgCtl('-l', path.join(dir, 'postgres.log'), '-o', pgOptions, 'start');
      const tookMs = await untilServing(base, START_TIMEOUT_MS / 2);
      expect(tookMs).toBeLessThan(5_000);
      expect(exited).toBe(false);
    },
    START_TIMEOUT_MS * 2,
  );
});
