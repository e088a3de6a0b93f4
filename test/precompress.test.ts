/** @jest-environment ./test/nodeEnvironment.js */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack from 'webpack';
import { PrecompressPlugin } from '../scripts/precompress';

/**
 * Builds `source` for production with the plugin's `rules` into `dir` (a new directory by default); answers the
 * build's output directory.
 */
function build(
  source: string,
  rules: ConstructorParameters<typeof PrecompressPlugin>[0],
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-precompress-')),
): Promise<string> {
  fs.writeFileSync(path.join(dir, 'entry.js'), source);
  return new Promise((resolve, reject) => {
    webpack(
      {
        mode: 'production',
        context: dir,
        entry: './entry.js',
        output: { path: path.join(dir, 'out'), filename: 'main.js' },
        devtool: 'source-map',
        plugins: [new PrecompressPlugin(rules)],
      },
      (error, stats) => {
        if (error || !stats || stats.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
        else resolve(path.join(dir, 'out'));
      },
    );
  });
}

const quality = (bytes: Buffer, level: number, window = zlib.constants.BROTLI_DEFAULT_WINDOW) =>
  zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: level,
      [zlib.constants.BROTLI_PARAM_LGWIN]: window,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });

// Words in a scrambled order: text that brotli's qualities compress to different sizes.
const words = Array.from({ length: 4_000 }, (_, index) => `word${(index * 7919) % 613}`);
const source = `console.log(${JSON.stringify(words.join(' '))});`;

describe('the build’s precompressed copies', () => {
  let out: string;
  beforeAll(async () => {
    out = await build(source, [{ test: /\.js$/, quality: 11 }]);
  }, 60_000);
  afterAll(() => fs.rmSync(path.dirname(out), { recursive: true, force: true }));

  it('are the file itself, in brotli at the rule’s quality and in gzip', () => {
    const script = fs.readFileSync(path.join(out, 'main.js'));
    const brotli = fs.readFileSync(path.join(out, 'main.js.br'));
    expect(zlib.brotliDecompressSync(brotli).equals(script)).toBe(true);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(out, 'main.js.gz'))).equals(script)).toBe(true);
    // What the server would send at its own quality (4) is larger: the copy was made at 11.
    expect(brotli.length).toBe(quality(script, 11).length);
    expect(brotli.length).toBeLessThan(quality(script, 4).length);
  });

  it('are made only of the files a rule matches', () => {
    expect(fs.existsSync(path.join(out, 'main.js.map'))).toBe(true);
    expect(fs.existsSync(path.join(out, 'main.js.map.br'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'main.js.map.gz'))).toBe(false);
  });
});

test('a rule’s window is the brotli window of its copies (DuckDB’s module: 24 bits, the widest a browser decodes)', async () => {
  const out = await build(source, [{ test: /\.js$/, quality: 11, window: 24 }]);
  try {
    const script = fs.readFileSync(path.join(out, 'main.js'));
    const brotli = fs.readFileSync(path.join(out, 'main.js.br'));
    expect(zlib.brotliDecompressSync(brotli).equals(script)).toBe(true);
    expect(brotli.equals(quality(script, 11, 24))).toBe(true);
    // The window is written in the stream's first byte: not the default's.
    expect(brotli.equals(quality(script, 11))).toBe(false);
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}, 60_000);

test('a build over an earlier one writes the copies of its own rules', async () => {
  const first = await build(source, [{ test: /\.js$/, quality: 4 }]);
  try {
    await build(source, [{ test: /\.js$/, quality: 11 }], path.dirname(first));
    const script = fs.readFileSync(path.join(first, 'main.js'));
    expect(fs.readFileSync(path.join(first, 'main.js.br')).equals(quality(script, 11))).toBe(true);
  } finally {
    fs.rmSync(path.dirname(first), { recursive: true, force: true });
  }
}, 60_000);
