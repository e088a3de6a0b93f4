import fs from 'node:fs';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { ENGINE_QUERY_MEASURE } from '../src/workers/scheduler';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/**
 * Samples the page's main thread (Chromium's CPU profiler, 100 µs) from now until the returned function is called,
 * which answers with the profile. Workers are other targets: their time is not in it.
 */
export async function startCpuProfile(page: Page): Promise<() => Promise<Profile>> {
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 100 });
  await session.send('Profiler.start');
  return async () => {
    const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: Profile };
    await session.detach();
    return profile;
  };
}

/** Where a sampled frame's code comes from: the module of the build's source map (a package, or a file of src). */
function sourceOf(frame: ProfileNode['callFrame'], maps: Map<string, SourceMapConsumer | null>, dist: string): string {
  if (!frame.url) return frame.functionName ? `(${frame.functionName.replace(/[()]/g, '')})` : '(native)';
  const file = new URL(frame.url).pathname.replace(/^\//, '');
  if (!maps.has(file)) {
    const mapPath = path.join(dist, `${file}.map`);
    maps.set(file, fs.existsSync(mapPath) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapPath, 'utf8'))) : null);
  }
  const map = maps.get(file);
  if (frame.lineNumber < 0) return file;
  const original = map?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  const source = original?.source;
  if (!source) return file;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (packageMatch) return packageMatch[1];
  return source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
}

/**
 * Prints the profile's busy time and where it went: self time by module (source-mapped through the build's maps in
 * `dist`), the largest first.
 */
export function printCpuProfile(profile: Profile, dist: string, label: string, top = 20): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  // Each sample's time is the gap to the next one.
  profile.samples.forEach((id, index) => {
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta);
  });
  const maps = new Map<string, SourceMapConsumer | null>();
  const bySource = new Map<string, number>();
  for (const [id, msSpent] of selfMs) {
    const node = byId.get(id);
    if (!node) continue;
    const source = sourceOf(node.callFrame, maps, dist);
    bySource.set(source, (bySource.get(source) ?? 0) + msSpent);
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  const idle = bySource.get('(idle)') ?? 0;
  console.log(
    `\nMain thread of the page, ${label}: ${Math.round(total)} ms profiled, ${Math.round(total - idle)} ms busy`,
  );
  console.log('| self time (ms) | where |');
  console.log('|---|---|');
  const rows = [...bySource].filter(([source]) => source !== '(idle)').sort((a, b) => b[1] - a[1]);
  for (const [source, msSpent] of rows.slice(0, top)) console.log(`| ${Math.round(msSpent)} | ${source} |`);
  const rest = rows.slice(top).reduce((sum, [, msSpent]) => sum + msSpent, 0);
  if (rest > 0) console.log(`| ${Math.round(rest)} | ${rows.length - top} more |`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Records Chromium's timeline (the DevTools Performance panel's categories) from now until the returned function is
 * called, which answers with the trace's events.
 */
export async function startTimelineTrace(page: Page): Promise<() => Promise<TraceEvent[]>> {
  const session = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await session.send('Tracing.start', {
    transferMode: 'ReportEvents',
    // `toplevel` for every thread's tasks; the wasm categories name what V8 does with DuckDB's module.
    traceConfig: {
      includedCategories: [
        'toplevel',
        'devtools.timeline',
        'v8',
        'v8.wasm',
        'disabled-by-default-v8.wasm.detailed',
        'blink',
        // The page's performance marks and measures (the engine's query spans).
        'blink.user_timing',
        '__metadata',
      ],
    },
  });
  return async () => {
    const complete = new Promise((resolve) => session.once('Tracing.tracingComplete', resolve));
    await session.send('Tracing.end');
    await complete;
    await session.detach();
    return events;
  };
}

/**
 * The page's main thread: of the renderers' main threads (Chromium may keep another renderer, for a blank or spare
 * page), the one that ran the longest.
 */
function pageMainThread(events: TraceEvent[]): { pid: number; tid: number } | undefined {
  const mains = events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const busy = (main: TraceEvent) =>
    events.reduce(
      (sum, event) =>
        event.pid === main.pid && event.tid === main.tid && event.ph === 'X' ? sum + (event.dur ?? 0) : sum,
      0,
    );
  return mains.map((main) => ({ main, us: busy(main) })).sort((a, b) => b.us - a.us)[0]?.main;
}

/**
 * Prints where the page's main thread spent its time by the timeline's own names (script evaluation and compilation,
 * style, layout, paint, garbage collection…): the outermost events only, so nothing is counted twice. With `fromTs`,
 * only the tasks that began at or after it (the trace's clock).
 */
export function printTimeline(events: TraceEvent[], label: string, top = 15, fromTs = -Infinity): void {
  const main = pageMainThread(events);
  if (!main) return;
  const slices = events
    .filter(
      (event) =>
        event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur && event.ts >= fromTs,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Each outermost slice's time, split among its direct children by name; what no child covers stays its own.
  const byName = new Map<string, number>();
  const add = (name: string, us: number) => byName.set(name, (byName.get(name) ?? 0) + us / 1000);
  let index = 0;
  while (index < slices.length) {
    const outer = slices[index];
    const end = outer.ts + (outer.dur ?? 0);
    let covered = 0;
    let next = index + 1;
    let childEnd = outer.ts;
    while (next < slices.length && slices[next].ts < end) {
      const child = slices[next];
      if (child.ts >= childEnd) {
        add(child.name, child.dur ?? 0);
        covered += child.dur ?? 0;
        childEnd = child.ts + (child.dur ?? 0);
      }
      next++;
    }
    add(
      outer.name === 'RunTask' || outer.name === 'ThreadControllerImpl::RunTask' ? '(task, other)' : outer.name,
      (outer.dur ?? 0) - covered,
    );
    index = next;
  }
  const total = [...byName.values()].reduce((sum, value) => sum + value, 0);
  console.log(`\nTimeline of the page's main thread, ${label}: ${Math.round(total)} ms in tasks`);
  console.log('| ms | event |');
  console.log('|---|---|');
  for (const [name, msSpent] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${Math.round(msSpent)} | ${name} |`);
  printSelfTimes(slices, label, top);
}

/**
 * Prints the slices' own time by name, each slice's time less its children's at every depth: what the style
 * recalculations, layouts, paints, script calls… took themselves, where the table above names only the outermost.
 * `slices`: one thread's, sorted by start, the longer first (they nest).
 */
function printSelfTimes(slices: TraceEvent[], label: string, top: number): void {
  const own = new Map<string, number>();
  const stack: { slice: TraceEvent; end: number; childUs: number }[] = [];
  const close = (entry: { slice: TraceEvent; childUs: number }) =>
    own.set(entry.slice.name, (own.get(entry.slice.name) ?? 0) + Math.max(0, (entry.slice.dur ?? 0) - entry.childUs));
  for (const slice of slices) {
    while (stack.length > 0 && stack[stack.length - 1].end <= slice.ts) close(stack.pop()!);
    const parent = stack[stack.length - 1];
    if (parent) parent.childUs += slice.dur ?? 0;
    stack.push({ slice, end: slice.ts + (slice.dur ?? 0), childUs: 0 });
  }
  while (stack.length > 0) close(stack.pop()!);
  console.log(`
The page's main thread, ${label}, by event's own time (ms; nested events apart)`);
  console.log('| ms | event |');
  console.log('|---|---|');
  for (const [name, us] of [...own].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${Math.round(us / 1000)} | ${name} |`);
}

/** The main thread's timeline and every thread's time in tasks, from one trace. */
export function printTrace(events: TraceEvent[], label: string): void {
  // With TRACE_OUT set, the trace is written there as well (DevTools' Performance panel loads it).
  if (process.env.TRACE_OUT)
    fs.writeFileSync(
      `${process.env.TRACE_OUT}.${label.replace(/\W+/g, '-')}.json`,
      JSON.stringify({ traceEvents: events }),
    );
  printTimeline(events, label);
  // The query phase: from the first statement the page sent an engine worker (its user-timing span) to the end.
  const queries = events.filter((event) => event.name === ENGINE_QUERY_MEASURE);
  if (queries.length > 0) {
    const from = queries.reduce((min, event) => Math.min(min, event.ts), Infinity);
    printTimeline(events, `${label}, from the first engine query on`, 15, from);
  }
  printThreads(events, label);
}

/** The outermost slices' total time, nested ones counted once (µs). */
function timeCovered(slices: TraceEvent[]): number {
  const sorted = [...slices].sort((a, b) => a.ts - b.ts);
  let coveredUntil = -Infinity;
  let us = 0;
  for (const slice of sorted) {
    const end = slice.ts + (slice.dur ?? 0);
    if (end <= coveredUntil) continue;
    us += end - Math.max(slice.ts, coveredUntil);
    coveredUntil = end;
  }
  return us;
}

/** What V8 and Blink did, by the trace's own names, for the jobs that weigh on a cold open (not their wrappers). */
const NAMED_JOBS: Record<string, string> = {
  'wasm.ValidateFunctionsStreaming': "DuckDB's module: validating its functions as they arrive",
  'wasm.OnBytesReceived': "DuckDB's module: decoding as it arrives",
  'wasm.CompileLazy': "DuckDB's module: functions compiled on first call (Liftoff)",
  'wasm.TopTierCompilation': "DuckDB's module: hot functions compiled again (TurboFan)",
  'v8.parseOnBackgroundParsing': 'scripts parsed off the main thread (not the wait for their bytes)',
  EvaluateScript: 'scripts evaluated (workers and the page)',
  'v8.callFunction': 'JavaScript called by a task (events, messages, timers)',
  UpdateLifecycle: 'style, layout and paint',
};

/**
 * Prints each thread's time in tasks (its outermost slices) from the trace's first event to its last, by process and
 * thread name, the busiest first, and the time of the jobs named in NAMED_JOBS: on 2 cores, what the browser's
 * processes and the page's workers ask of the machine together (Chromium traces every process of the browser).
 */
export function printThreads(events: TraceEvent[], label: string, top = 12): void {
  const names = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const event of events) {
    if (event.ph !== 'M') continue;
    if (event.name === 'thread_name') names.set(`${event.pid}/${event.tid}`, event.args?.name ?? '?');
    if (event.name === 'process_name') processes.set(event.pid, event.args?.name ?? '?');
  }
  const slices = events.filter((event) => event.ph === 'X' && event.dur);
  if (slices.length === 0) return;
  // A trace holds tens of thousands of slices: no spread into Math.max, no array copied per slice.
  const start = slices.reduce((min, e) => Math.min(min, e.ts), Infinity);
  const end = slices.reduce((max, e) => Math.max(max, e.ts + (e.dur ?? 0)), -Infinity);
  const traceMs = (end - start) / 1000;
  const byThread = new Map<string, TraceEvent[]>();
  const byJob = new Map<string, TraceEvent[]>();
  const add = (groups: Map<string, TraceEvent[]>, key: string, event: TraceEvent) => {
    const group = groups.get(key);
    if (group) group.push(event);
    else groups.set(key, [event]);
  };
  for (const event of slices) {
    add(byThread, `${event.pid}/${event.tid}`, event);
    const job = Object.keys(NAMED_JOBS).find((name) => event.name.endsWith(name));
    if (job) add(byJob, job, event);
  }
  const busy = [...byThread].map(([thread, own]) => ({ thread, ms: timeCovered(own) / 1000 }));
  const total = busy.reduce((sum, { ms }) => sum + ms, 0);
  console.log(
    `\nThreads in tasks, ${label}: ${Math.round(total)} ms over ${Math.round(traceMs)} ms of trace ` +
      `(${(total / traceMs).toFixed(2)} threads busy on average)`,
  );
  console.log('| ms | process | thread |');
  console.log('|---|---|---|');
  for (const { thread, ms } of busy.sort((a, b) => b.ms - a.ms).slice(0, top)) {
    const pid = Number(thread.split('/')[0]);
    console.log(`| ${Math.round(ms)} | ${processes.get(pid) ?? pid} | ${names.get(thread) ?? thread} |`);
  }
  console.log(
    `\nJobs, ${label} (all threads; jobs contain one another: a function compiled on first call is inside the ` +
      'JavaScript call that reached it)',
  );
  console.log('| ms | job |');
  console.log('|---|---|');
  const jobs = [...byJob].map(([job, own]) => {
    const threads = new Set(own.map((event) => `${event.pid}/${event.tid}`));
    const us = [...threads].reduce(
      (sum, thread) => sum + timeCovered(own.filter((event) => `${event.pid}/${event.tid}` === thread)),
      0,
    );
    return { job, ms: us / 1000 };
  });
  for (const { job, ms } of jobs.sort((a, b) => b.ms - a.ms)) console.log(`| ${Math.round(ms)} | ${NAMED_JOBS[job]} |`);
}

/** Prints the profile as runs of one source of at least `minMs` (ms from the profile's start): what ran when. */
export function printCpuSequence(profile: Profile, dist: string, minMs = 8): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const maps = new Map<string, SourceMapConsumer | null>();
  const sourceCache = new Map<number, string>();
  let at = 0;
  let run: { source: string; start: number; ms: number } | undefined;
  const flush = () => {
    if (run && run.ms >= minMs && run.source !== '(idle)')
      console.log(`| ${Math.round(run.start)} | ${Math.round(run.ms)} | ${run.source} |`);
  };
  console.log('| start | ms | source |\n|---|---|---|');
  profile.samples.forEach((id, index) => {
    at += (profile.timeDeltas[index] ?? 0) / 1000;
    let source = sourceCache.get(id);
    if (source === undefined) {
      const node = byId.get(id);
      source = node ? sourceOf(node.callFrame, maps, dist) : '?';
      sourceCache.set(id, source);
    }
    const delta = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    if (run?.source === source) run.ms += delta;
    else {
      flush();
      run = { source, start: at, ms: delta };
    }
  });
  flush();
}

/**
 * Prints a profile by module and, runs of at least `minMs`, in sequence; with PROFILE_OUT set, also writes it there
 * as JSON (a .cpuprofile that DevTools opens).
 */
export function reportCpuProfile(profile: Profile, dist: string, label: string, minMs = 8): void {
  if (process.env.PROFILE_OUT)
    fs.writeFileSync(`${process.env.PROFILE_OUT}.${label.replace(/\W+/g, '-')}`, JSON.stringify(profile));
  printCpuProfile(profile, dist, label);
  printCpuSequence(profile, dist, minMs);
}
