import fs from 'node:fs';
import { SourceMapConsumer } from 'source-map-js';
const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const maps = new Map<string, SourceMapConsumer | null>();
const byId = new Map<number, any>(); for (const n of profile.nodes) byId.set(n.id, n);
const parent = new Map<number, number>(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
function where(f: any) {
  const file = f.url.split('/').pop();
  if (!file) return f.functionName || '(native)';
  if (!maps.has(file)) maps.set(file, fs.existsSync('dist/' + file + '.map') ? new SourceMapConsumer(JSON.parse(fs.readFileSync('dist/' + file + '.map', 'utf8'))) : null);
  const m = maps.get(file); if (!m || f.lineNumber < 0) return `${file} ${f.functionName}`;
  const o = m.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  return `${String(o.source).replace(/.*node_modules\//, '').replace('webpack://openrate/', '')}:${o.line} ${o.name ?? f.functionName}`;
}
// an "interesting" frame: first frame from src/ in the stack (from leaf up), else leaf
function label(id: number): string {
  let p: number | undefined = id; const leaf = where(byId.get(id).callFrame);
  const chain: string[] = [];
  while (p) { const w = where(byId.get(p).callFrame); chain.push(w); p = parent.get(p); }
  const app = chain.find((w) => w.startsWith('src/'));
  return `${leaf.slice(0, 60)}  <=  ${app ?? ''}`;
}
let t = 0; const from = Number(process.argv[3] ?? 0), to = Number(process.argv[4] ?? 1e9);
let cur = ''; let start = 0; let acc = 0;
profile.samples.forEach((id: number, i: number) => {
  t += (profile.timeDeltas[i] ?? 0) / 1000;
  const d = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  if (t < from || t > to) return;
  const l = byId.get(id).callFrame.functionName === '(idle)' ? '(idle)' : label(id);
  if (l !== cur) { if (cur && acc >= 0.5) console.log(start.toFixed(1).padStart(7), acc.toFixed(1).padStart(6), cur); cur = l; start = t; acc = 0; }
  acc += d;
});
