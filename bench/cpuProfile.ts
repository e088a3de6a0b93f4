import fs from 'node:fs';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';

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
    traceConfig: { includedCategories: ['devtools.timeline', 'v8', 'blink', '__metadata'] },
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
 * Prints where the page's main thread spent its time by the timeline's own names (script evaluation and compilation,
 * style, layout, paint, garbage collection…): the outermost events only, so nothing is counted twice.
 */
export function printTimeline(events: TraceEvent[], label: string, top = 15): void {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  if (!main) return;
  const slices = events
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur)
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
  if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  printCpuProfile(profile, dist, label);
  printCpuSequence(profile, dist, minMs);
}
