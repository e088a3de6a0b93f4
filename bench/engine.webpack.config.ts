import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import appConfig from '../webpack.config';

/**
 * The engine's harness pages: the benchmark (index.html) and the pool driver of e2e/engine.spec.ts (pool.html).
 * The app's own webpack rules (worker, .wasm assets, aliases) with separate entries and output, so the production
 * app's chunks are untouched.
 */
export function engineHarnessConfig(outputPath = path.join(__dirname, 'out/engine-harness')): Configuration {
  const base = appConfig({}, { mode: 'production' });
  return {
    ...base,
    entry: {
      engineBench: path.join(__dirname, 'harness/engine.ts'),
      poolHarness: path.join(__dirname, 'harness/pool.ts'),
    },
    output: { ...base.output, path: outputPath, publicPath: '/' },
    devtool: false,
    // Each page is one script: no runtime or shared chunks for the pages' chunk filters to miss.
    optimization: { ...base.optimization, runtimeChunk: false, splitChunks: false },
    plugins: [
      new HtmlWebpackPlugin({ title: 'engine bench', chunks: ['engineBench'] }),
      new HtmlWebpackPlugin({ title: 'pool harness', filename: 'pool.html', chunks: ['poolHarness'] }),
    ],
  };
}
