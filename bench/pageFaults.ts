import fs from 'node:fs';

/**
 * The page faults of a browser's processes, read from Linux's /proc: how much memory an open touched for the first
 * time, and which threads touched it. On a machine whose fresh pages are slow (bench/README.md, "Why this machine is
 * slow") this is what a cold open pays for beyond a quick machine, and unlike a time it hardly depends on the load.
 */

interface ProcessFaults {
  /** The process's minor faults, those of its ended threads included. */
  faults: number;
  /** Each live thread's name and minor faults, by thread id. */
  threads: Map<number, { name: string; faults: number }>;
}

export type FaultSnapshot = Map<number, ProcessFaults>;

/** A page fault maps one 4 KiB page (a transparent huge page maps 2 MiB in one: the figures are then a floor). */
const PAGE_BYTES = 4096;

/** `/proc/<pid>/stat` (or a task's): the command name, the parent pid, the minor faults and the CPU time used. */
function readStat(file: string): { name: string; parent: number; faults: number; cpuTicks: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // ended since it was listed
  }
  const close = text.lastIndexOf(')');
  // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime, stime
  // (proc(5)); the times in clock ticks.
  const fields = text.slice(close + 2).split(' ');
  return {
    name: text.slice(text.indexOf('(') + 1, close),
    parent: Number(fields[1]),
    faults: Number(fields[7]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
  };
}

const pids = (dir: string) => {
  try {
    return fs
      .readdirSync(dir)
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
};

/** The pid of the browser started with `--user-data-dir=<profile>`, if /proc shows one. */
export function browserWithProfile(profile: string): number | undefined {
  const flag = `--user-data-dir=${profile}`;
  return pids('/proc').find((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(flag);
    } catch {
      return false;
    }
  });
}

const isBrowser = (pid: number) => {
  try {
    return /chrom/i.test(fs.readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return false;
  }
};

/** The pid of a browser this process started (the only one, where the benchmark starts one). */
export function browserStartedHere(): number | undefined {
  return pids('/proc').find((pid) => readStat(`/proc/${pid}/stat`)?.parent === process.pid && isBrowser(pid));
}

/** `root` and every process below it (the browser's renderers, GPU and utility processes). */
function processesBelow(root: number): number[] {
  const parents = new Map<number, number>();
  for (const pid of pids('/proc')) {
    const stat = readStat(`/proc/${pid}/stat`);
    if (stat) parents.set(pid, stat.parent);
  }
  const isBelowRoot = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at))
      if (at === root) return true;
    return false;
  };
  return [...parents.keys()].filter(isBelowRoot);
}

/**
 * The resident memory of the browser's largest renderer (the tab's, with its workers), in bytes: what a tab left open
 * holds of the machine's memory.
 */
export function tabResidentBytes(root: number | undefined): number {
  if (root === undefined) return NaN;
  const sizes = processesBelow(root).flatMap((pid) => {
    try {
      // A renderer's title is its command line joined by spaces (Chromium rewrites it).
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) return [];
      const kib = Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      return Number.isFinite(kib) ? [kib * 1024] : [];
    } catch {
      return []; // ended since it was listed
    }
  });
  return sizes.length ? Math.max(...sizes) : NaN;
}

/** Linux's clock tick, in which /proc reports CPU time (`getconf CLK_TCK`: 100 on every Linux this runs on). */
const TICK_MS = 10;

/**
 * The CPU time `root` and every process below it have used, in ms. `seen` keeps each process's last reading, so that
 * one which ended since still counts and the total never falls.
 */
function cpuMsBelow(root: number, seen: Map<number, number>): number {
  for (const pid of processesBelow(root)) {
    const ticks = readStat(`/proc/${pid}/stat`)?.cpuTicks;
    if (ticks !== undefined) seen.set(pid, ticks);
  }
  return [...seen.values()].reduce((sum, ticks) => sum + ticks * TICK_MS, 0);
}

/**
 * Waits until a browser just launched has done its own start (a fresh Chromium spends about half a second of CPU
 * after Playwright has it, loading among others the omnibox's WebUI in a renderer of its own): until its processes
 * use less than `idleShare` of one core over `quietMs`, or `maxMs` have passed. A user opens a dashboard in a browser
 * already running; measured at once, a cold open shares the 2 cores with that start. Answers how long it waited and
 * the CPU the browser used meanwhile.
 */
export async function browserStartDone(
  root: number | undefined,
  { quietMs = 500, idleShare = 0.05, maxMs = 10_000, pollMs = 100 } = {},
): Promise<{ waitedMs: number; cpuMs: number }> {
  if (root === undefined) return { waitedMs: NaN, cpuMs: NaN };
  const started = performance.now();
  const seen = new Map<number, number>();
  const first = cpuMsBelow(root, seen);
  const samples: { at: number; cpu: number }[] = [{ at: started, cpu: first }];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const at = performance.now();
    const cpu = cpuMsBelow(root, seen);
    samples.push({ at, cpu });
    const since = samples.findLast((sample) => sample.at <= at - quietMs);
    const quiet = since !== undefined && cpu - since.cpu <= (at - since.at) * idleShare;
    if (quiet || at - started >= maxMs) return { waitedMs: at - started, cpuMs: cpu - first };
  }
}

/** The faults of `root` and every process below it (the browser's renderers, GPU and utility processes). */
export function faultSnapshot(root: number | undefined): FaultSnapshot {
  const snapshot: FaultSnapshot = new Map();
  if (root === undefined) return snapshot;
  for (const pid of processesBelow(root)) {
    const threads = new Map<number, { name: string; faults: number }>();
    for (const tid of pids(`/proc/${pid}/task`)) {
      const thread = readStat(`/proc/${pid}/task/${tid}/stat`);
      if (thread) threads.set(tid, { name: tid === pid ? 'main' : thread.name, faults: thread.faults });
    }
    // Read after its threads, so that it holds at least their sum (the threads keep faulting meanwhile).
    const stat = readStat(`/proc/${pid}/stat`);
    if (stat) snapshot.set(pid, { faults: stat.faults, threads });
  }
  return snapshot;
}

/** The thread groups reported, by Chromium's thread names. */
const GROUPS: [string, (name: string) => boolean][] = [
  ["the page's thread", (name) => name === 'main'],
  ['workers (DuckDB, the pool)', (name) => name === 'DedicatedWorker'],
  ["V8's helper threads (compiling, GC)", (name) => name.startsWith('ThreadPoolForeg')],
];

/**
 * The memory first touched between two snapshots, in bytes: the whole browser, the renderer that touched the most
 * (the tab's: its page and workers), and that renderer's threads by group. Threads that ended in between count under
 * "ended threads" (their faults stay in the process's count).
 */
export function faultsBetween(before: FaultSnapshot, after: FaultSnapshot): Record<string, number> {
  const grown = [...after].map(([pid, now]) => {
    const was = before.get(pid);
    return { now, was, faults: now.faults - (was?.faults ?? 0) };
  });
  const total = grown.reduce((sum, entry) => sum + entry.faults, 0);
  const tab = grown.reduce<(typeof grown)[number] | undefined>(
    (top, entry) => (top && top.faults >= entry.faults ? top : entry),
    undefined,
  );
  const result: Record<string, number> = { 'the browser, all processes': total * PAGE_BYTES };
  if (!tab) return result;
  result["the tab's renderer"] = tab.faults * PAGE_BYTES;
  const byGroup = new Map<string, number>();
  let live = 0;
  for (const [tid, thread] of tab.now.threads) {
    const faults = thread.faults - (tab.was?.threads.get(tid)?.faults ?? 0);
    const group = GROUPS.find(([, matches]) => matches(thread.name))?.[0] ?? 'other threads';
    byGroup.set(group, (byGroup.get(group) ?? 0) + faults);
    live += faults;
  }
  for (const [group] of [...GROUPS, ['other threads']]) result[`  ${group}`] = (byGroup.get(group) ?? 0) * PAGE_BYTES;
  result['  ended threads'] = (tab.faults - live) * PAGE_BYTES;
  return result;
}
