import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiBenchTarget } from './apiServer';

/**
 * npm run bench:api [-- --connections 10,50,100 --seconds 10]
 * Latency (p50/p99) and throughput of `GET /api/workspaces/{id}/reports` for the signed-in demo user at each number of
 * concurrent keep-alive connections, on the embedded PGlite and, when DATABASE_URL is set, on PostgreSQL (a
 * throwaway database on that server), next to a bare Fastify route under the same load. The server runs in a child
 * process (bench/apiServer.ts); this process only sends requests. Figures only, no assertions.
 */
const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10,50,100' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
  },
});
const connectionCounts = values.connections.split(',').map(Number);
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);

interface Run {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function get(agent: http.Agent, url: URL, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { cookie, 'accept-encoding': 'gzip' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** `connections` loops, each on its own keep-alive socket, sending one request after the other for `duration` s. */
async function load(url: string, cookie: string, connections: number, duration: number): Promise<Run> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const status = await get(agent, target, cookie);
          if (status !== 200) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    perSecond: latencies.length / elapsed,
  };
}

function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; target: ApiBenchTarget }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'apiServer.ts'), [], {
      env,
      execArgv: [
        '--import',
        'tsx',
        // BENCH_PROF=<dir>: a CPU profile of the server process, to see where a request's time goes.
        ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
      ],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('the bench server did not start within 120 s'));
    }, 120_000);
    child.once('message', (target) => {
      clearTimeout(timer);
      resolve({ child, target: target as ApiBenchTarget });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited with ${code}`));
    });
  });
}

const fmt = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0)).padStart(6);
const ratio = (x: number) => x.toFixed(2).padStart(6);

async function benchDatabase(env: NodeJS.ProcessEnv): Promise<void> {
  const { child, target } = await startServer(env);
  try {
    const reportsUrl = `${target.appUrl}/api/workspaces/${target.workspaceId}/reports`;
    // Warm both paths (JIT, the database's caches) before anything is measured.
    await load(reportsUrl, target.cookie, 10, warmupSeconds);
    await load(target.bareUrl, '', 10, warmupSeconds);
    console.log(`\n${target.database}: GET /api/workspaces/${target.workspaceId}/reports, ${seconds} s per row`);
    console.log('connections | route   |  p50 ms |  p99 ms |  max ms |   req/s | errors | p99 / bare | req/s / bare');
    for (const connections of connectionCounts) {
      const bare = await load(target.bareUrl, '', connections, seconds);
      const api = await load(reportsUrl, target.cookie, connections, seconds);
      for (const [name, run] of [
        ['bare', bare],
        ['reports', api],
      ] as const) {
        const vsBare =
          name === 'bare' ? '' : `${ratio(run.p99 / bare.p99)}     | ${ratio(run.perSecond / bare.perSecond)}`;
        console.log(
          `${String(connections).padStart(11)} | ${name.padEnd(7)} | ${fmt(run.p50)}  | ${fmt(run.p99)}  | ${fmt(run.max)}  | ${fmt(run.perSecond)}  | ${String(run.errors).padStart(6)} | ${vsBare}`,
        );
      }
    }
  } finally {
    child.disconnect();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  console.log(
    `Node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const base = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  await benchDatabase({ ...base, DATABASE_URL: '' });
  if (process.env.DATABASE_URL) await benchDatabase(base);
  console.log(
    `\nload average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
