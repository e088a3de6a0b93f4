import fs from 'node:fs';
import type Binaryen from 'binaryen';

/**
 * DuckDB-WASM 1.32's modules export 75,011 functions and addresses (an Emscripten main module, built so that
 * extensions could link against any of its C++ symbols at run time), and their names are 7.4 MB of the eh module's
 * 34 MB: 0.75 MB of its 5.9 MB download, decoded and validated by every compilation, turned into an exports object
 * by every instantiation, then walked by the start code. The engine links no extension (none is installed or
 * loaded), and its start code and bindings reach an export only by a name written in their source (`wasmExports.x`,
 * `Module._x`, `ccall("x")`) or through the global offset table's entries. So the module keeps the exports so named
 * (and every `dynCall_`, whose names are made at run time from a signature) and drops the others; nothing else in
 * the module changes. The build fails if one of the exports every start needs is not kept.
 *
 * Then the code only those exports reached goes too (binaryen's `remove-unused-module-elements`, the pass
 * Emscripten's own builds run): functions and imports nothing kept can call. The eh module: 34.2 → 24.1 MB, its
 * brotli download 5.7 → 4.4 MiB. Figures: bench/README.md.
 */

const SECTION_IMPORT = 2;
const SECTION_EXPORT = 7;
const WASM_HEADER_BYTES = 8;
/** Exports the start code and bindings cannot run without: if one is not kept, the rule above no longer holds. */
const REQUIRED_EXPORTS = [
  '__wasm_call_ctors',
  'malloc',
  'free',
  'duckdb_web_open',
  'duckdb_web_connect',
  'duckdb_web_query_run',
];

/** A reader over a module's bytes: unsigned LEB128 integers and length-prefixed names. */
function reader(bytes: Uint8Array, at = 0) {
  const cursor = {
    at,
    u32(): number {
      let result = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = bytes[cursor.at++];
        result |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      return result >>> 0;
    },
    name(): string {
      const length = cursor.u32();
      const name = new TextDecoder().decode(bytes.subarray(cursor.at, cursor.at + length));
      cursor.at += length;
      return name;
    },
  };
  return cursor;
}

function u32Bytes(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const byte = rest & 0x7f;
    rest >>>= 7;
    out.push(rest ? byte | 0x80 : byte);
  } while (rest);
  return out;
}

interface Section {
  id: number;
  /** Where the section (its id byte) starts, where its contents start, and where it ends. */
  start: number;
  body: number;
  end: number;
}

function sectionsOf(bytes: Uint8Array): Section[] {
  const read = reader(bytes, WASM_HEADER_BYTES);
  const sections: Section[] = [];
  while (read.at < bytes.length) {
    const start = read.at;
    const id = bytes[read.at++];
    const size = read.u32();
    sections.push({ id, start, body: read.at, end: read.at + size });
    read.at += size;
  }
  return sections;
}

/** The names the module imports: all, and those from the global offset table (`GOT.mem`, `GOT.func`). */
function importedNames(
  bytes: Uint8Array,
  section: Section | undefined,
): { all: Set<string>; offsetTable: Set<string> } {
  const names = { all: new Set<string>(), offsetTable: new Set<string>() };
  if (!section) return names;
  const read = reader(bytes, section.body);
  const count = read.u32();
  for (let index = 0; index < count; index++) {
    const module = read.name();
    const name = read.name();
    const kind = bytes[read.at++];
    if (kind === 0)
      read.u32(); // a function: its type
    else if (kind === 1) {
      read.at++; // a table: its element type, then its limits
      if (bytes[read.at++] & 1) read.u32();
      read.u32();
    } else if (kind === 2) {
      if (bytes[read.at++] & 1) read.u32(); // a memory: its limits
      read.u32();
    } else if (kind === 3)
      read.at += 2; // a global: its type and mutability
    else if (kind === 4) {
      read.at++; // a tag: its attribute and type
      read.u32();
    } else throw new Error(`DuckDB's module imports something of unknown kind ${kind}`);
    names.all.add(name);
    if (module.startsWith('GOT.')) names.offsetTable.add(name);
  }
  return names;
}

/**
 * The module with only the exports that `source` (the start code and bindings that run it) can reach, and the names
 * it kept. Every other byte is as it was.
 */
export function withReachableExports(
  module: Uint8Array,
  source: string,
): { module: Uint8Array<ArrayBuffer>; kept: string[] } {
  const sections = sectionsOf(module);
  const exports = sections.find((section) => section.id === SECTION_EXPORT);
  if (!exports) throw new Error("DuckDB's module has no export section: check scripts/duckdbWasm.ts");
  const written = new Set(source.match(/[A-Za-z_$][\w$]*/g));
  const imported = importedNames(
    module,
    sections.find((section) => section.id === SECTION_IMPORT),
  );
  const reachable = (name: string) => {
    const bare = name.startsWith('orig$') ? name.slice('orig$'.length) : name;
    return (
      written.has(bare) || written.has(`_${bare}`) || imported.offsetTable.has(bare) || bare.startsWith('dynCall_')
    );
  };

  const read = reader(module, exports.body);
  const count = read.u32();
  const keptEntries: Uint8Array[] = [];
  const kept: string[] = [];
  for (let index = 0; index < count; index++) {
    const entryStart = read.at;
    const name = read.name();
    read.at++; // its kind
    read.u32(); // its index
    if (!reachable(name)) continue;
    kept.push(name);
    keptEntries.push(module.subarray(entryStart, read.at));
  }
  const missing = REQUIRED_EXPORTS.filter((name) => !kept.includes(name));
  if (missing.length > 0) {
    throw new Error(`DuckDB's module kept no ${missing.join(', ')}: check scripts/duckdbWasm.ts against the release`);
  }

  const contents = [Uint8Array.from(u32Bytes(keptEntries.length)), ...keptEntries];
  const contentsLength = contents.reduce((sum, part) => sum + part.length, 0);
  const parts = [
    module.subarray(0, exports.start),
    Uint8Array.from([SECTION_EXPORT, ...u32Bytes(contentsLength)]),
    ...contents,
    module.subarray(exports.end),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return { module: out, kept };
}

/**
 * What DuckDB-WASM's modules use beyond the MVP, the features binaryen writes the module with (what it holds, in
 * the encodings these allow). The eh module's exceptions are the legacy proposal's (`try`, as the browser's probe in
 * src/workers/duckdbModule.ts tests), kept as they are.
 */
function binaryenFeatures(binaryen: typeof Binaryen) {
  const { Features } = binaryen;
  return (
    Features.MutableGlobals |
    Features.NontrappingFPToInt |
    Features.SignExt |
    Features.BulkMemory |
    Features.BulkMemoryOpt |
    Features.SIMD128 |
    Features.ExceptionHandling
  );
}

/** The module without the functions, imports and other elements that nothing it exports or holds can reach. */
export async function withoutDeadCode(module: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const binaryen = (await import('binaryen')).default;
  const parsed = binaryen.readBinary(module);
  try {
    parsed.setFeatures(binaryenFeatures(binaryen));
    parsed.runPasses(['remove-unused-module-elements']);
    return new Uint8Array(parsed.emitBinary());
  } finally {
    parsed.dispose();
  }
}

/** DuckDB's module as the app serves it: only the exports `source` reaches, and only the code those reach. */
export async function servedModule(module: Uint8Array, source: string): Promise<Uint8Array<ArrayBuffer>> {
  return withoutDeadCode(withReachableExports(module, source).module);
}

interface LoaderContext {
  /** `bundle`: the start code and bindings the browser's worker runs with the modules. */
  getOptions(): { bundle: string };
  addDependency(file: string): void;
  async(): (error: Error | null, result?: Buffer) => void;
}

/** The webpack loader (webpack.config.ts) for DuckDB's .wasm files: raw bytes in, the served module out. */
// eslint-disable-next-line import-x/no-default-export -- webpack runs a loader module's default export
export default function duckdbWasmLoader(this: LoaderContext, module: Buffer): void {
  const done = this.async();
  const { bundle } = this.getOptions();
  this.addDependency(bundle);
  servedModule(module, fs.readFileSync(bundle, 'utf8')).then(
    (served) => done(null, Buffer.from(served)),
    (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
  );
}

/** webpack hands this loader the file's bytes, not text. */
export const raw = true;
