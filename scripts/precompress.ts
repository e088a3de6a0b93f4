import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Compiler } from 'webpack';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Which emitted files get copies, and at which brotli quality. */
export interface PrecompressRule {
  test: RegExp;
  quality: number;
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each emitted file a rule matches, for the server to send as
 * they are (@fastify/static's preCompressed) instead of compressing each answer again:
 * - the DuckDB modules (34 MB): compressing them on every request cost the server about a second each time. Brotli
 *   quality 7: for the eh module 6.0 MB against 5.9 MB at quality 9 and 6.2 MB at quality 5, in 40 % of quality 9's
 *   time (quality 11 takes minutes per module);
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
            return rule ? [{ name, quality: rule.quality }] : [];
          });
          await Promise.all(
            matched.map(async ({ name, quality }) => {
              const bytes = compilation.getAsset(name)?.source.buffer();
              if (!bytes) return;
              const [br, gz] = await Promise.all([
                brotli(bytes, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
                  },
                }),
                gzip(bytes, { level: 9 }),
              ]);
              // Copies of an immutable asset: never minimised or hashed again.
              const info = { immutable: true, compressed: true, minimized: true };
              compilation.emitAsset(`${name}.br`, new sources.RawSource(br), info);
              compilation.emitAsset(`${name}.gz`, new sources.RawSource(gz), info);
            }),
          );
        },
      );
    });
  }
}
