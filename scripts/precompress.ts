import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Compiler } from 'webpack';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each emitted file the pattern matches, for the server to
 * send as they are (@fastify/static's preCompressed): the DuckDB modules are 34 MB, and compressing them on every
 * request cost the server about a second each time. Brotli quality 7: for the eh module 6.0 MB against 5.9 MB at
 * quality 9 and 6.2 MB at quality 5, in 40 % of quality 9's time (quality 11 takes minutes per module).
 */
export class PrecompressPlugin {
  constructor(private readonly test: RegExp = /\.wasm$/) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async (assets) => {
          const names = Object.keys(assets).filter((name) => this.test.test(name));
          await Promise.all(
            names.map(async (name) => {
              const bytes = compilation.getAsset(name)?.source.buffer();
              if (!bytes) return;
              const [br, gz] = await Promise.all([
                brotli(bytes, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: 7,
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
