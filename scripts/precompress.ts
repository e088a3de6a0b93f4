import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Compiler } from 'webpack';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Which emitted files get copies, at which brotli quality and window. */
export interface PrecompressRule {
  test: RegExp;
  quality: number;
  /**
   * Brotli's window, in bits (10–24; a browser decodes up to 24, 16 MiB): how far back a repeat may be found. Wider
   * pays only for files larger than the default's 4 MiB (22).
   */
  window?: number;
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each emitted file a rule matches, for the server to send as
 * they are (@fastify/static's preCompressed) instead of compressing each answer again:
 * - the DuckDB modules: compressing them on every request cost the server about a second each time. The eh module,
 *   the one every current browser gets (24 MB since its dead code went), at quality 11 with a 24-bit window: 3.75 MiB
 *   against 4.43 at quality 7 (4.31 at 9, 3.90 at 10), for about 45 s of build; a cold open downloads 0.68 MiB less.
 *   The mvp module, for browsers without WebAssembly exceptions, stays at quality 7;
 * - the scripts and style sheets: quality 11, which the server cannot afford per answer (it compresses at 4). All of
 *   them came to 1,321 KiB against 1,590 KiB at quality 4 (bench/README.md), for a few seconds of build.
 */
export class PrecompressPlugin {
  constructor(private readonly rules: readonly PrecompressRule[]) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async (assets) => {
          const matched = Object.keys(assets).flatMap((name) => {
            const rule = this.rules.find((candidate) => candidate.test.test(name));
            return rule ? [{ name, rule }] : [];
          });
          await Promise.all(
            matched.map(async ({ name, rule: { quality, window } }) => {
              const bytes = compilation.getAsset(name)?.source.buffer();
              if (!bytes) return;
              const [br, gz] = await Promise.all([
                brotli(bytes, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
                    [zlib.constants.BROTLI_PARAM_LGWIN]: window ?? zlib.constants.BROTLI_DEFAULT_WINDOW,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
                  },
                }),
                gzip(bytes, { level: 9 }),
              ]);
              // Never minimised or compressed again. Not marked immutable although their file's name holds its hash:
              // their bytes also depend on the rule, and webpack keeps an immutable file already in the output
              // directory unread, so a build over an earlier one (npm start's) would keep the earlier rule's copy.
              const info = { compressed: true, minimized: true };
              compilation.emitAsset(`${name}.br`, new sources.RawSource(br), info);
              compilation.emitAsset(`${name}.gz`, new sources.RawSource(gz), info);
            }),
          );
        },
      );
    });
  }
}
