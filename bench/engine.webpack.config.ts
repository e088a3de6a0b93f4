import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import appConfig from '../webpack.config';

/**
 * The engine benchmark's harness page: the app's own webpack rules (worker, .wasm assets, aliases) with a
 * separate entry and output, so the production app's chunks are untouched.
 */
export function engineHarnessConfig(): Configuration {
  const base = appConfig({}, { mode: 'production' });
  return {
    ...base,
    entry: { engineBench: path.join(__dirname, 'harness/engine.ts') },
    output: { ...base.output, path: path.join(__dirname, 'out/engine-harness'), publicPath: '/' },
    devtool: false,
    plugins: [new HtmlWebpackPlugin({ title: 'engine bench' })],
  };
}
