import path from 'node:path';
import ReactRefreshWebpackPlugin from '@pmmmwh/react-refresh-webpack-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { type Configuration, DefinePlugin, NormalModuleReplacementPlugin } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { IconPathsPlugin, iconPathsHash } from './scripts/iconPaths';
import { PrecompressPlugin } from './scripts/precompress';

const root = __dirname;
const duckdbDist = path.join(root, 'node_modules/@duckdb/duckdb-wasm/dist');

/**
 * Where a lazily loaded chunk's style sheet goes (run in the browser, so self-contained): the second part of
 * Blueprint's (scripts/blueprintCss.ts) right after the first, before the app's own rules, so the cascade is as if
 * Blueprint's were one sheet; the others at the end of the head, as by default.
 */
function insertStyleSheet(linkTag: HTMLLinkElement) {
  const appSheet = /\/blueprint-later\.[^/]*\.css$/.test(linkTag.href)
    ? document.querySelector('link[rel="stylesheet"][href^="/main."]')
    : null;
  if (appSheet) appSheet.before(linkTag);
  else document.head.appendChild(linkTag);
}

interface Env {
  WEBPACK_SERVE?: boolean;
}

/** Production: content-hashed, route-split chunks; plotly and DuckDB-WASM only in lazily loaded chunks. */
export default function config(env: Env = {}, argv: { mode?: Configuration['mode'] } = {}): Configuration {
  const mode = argv.mode ?? (env.WEBPACK_SERVE ? 'development' : 'production');
  const production = mode === 'production';
  const apiPort = process.env.API_PORT ?? '8081';
  // React Fast Refresh: edits to a component keep its state under webpack-dev-server (npm run dev).
  const refresh = !production && Boolean(env.WEBPACK_SERVE);

  const devServer: DevServerConfiguration = {
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 8080),
    hot: true,
    historyApiFallback: true,
    proxy: [{ context: ['/api', '/session', '/login/google'], target: `http://127.0.0.1:${apiPort}` }],
    static: false,
  };

  return {
    mode,
    context: root,
    entry: { main: './src/app/main.tsx' },
    output: {
      path: path.join(root, 'dist'),
      publicPath: '/',
      filename: production ? '[name].[contenthash].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash][ext]',
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js'],
      alias: {
        // The synchronous DuckDB-WASM build runs directly inside our own worker (no nested worker).
        '@duckdb/duckdb-wasm/browser-blocking$': path.join(duckdbDist, 'duckdb-browser-blocking.mjs'),
        // React Router's package exports only its development build (with its warnings) under every condition; a
        // production build names the twin without them, for both of its entry points so that there is one router.
        ...(production
          ? {
              'react-router$': path.join(root, 'node_modules/react-router/dist/production/index.mjs'),
              'react-router/dom$': path.join(root, 'node_modules/react-router/dist/production/dom-export.mjs'),
            }
          : {}),
      },
      fallback: { crypto: false, worker_threads: false, fs: false, path: false, os: false },
    },
    // plotly's d3 dependencies refer to Node's `global`; webpack maps it to globalThis.
    node: { __filename: false, __dirname: false, global: true },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production, refresh } },
                target: 'es2022',
              },
            },
          },
        },
        {
          test: /\.css$/,
          use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'],
        },
        // Blueprint's style sheet in two parts: the first screens' rules, and the rest with the lazily loaded routes.
        {
          test: /@blueprintjs[\\/]core[\\/]lib[\\/]css[\\/]blueprint\.css$/,
          resourceQuery: /part=/,
          use: { loader: path.join(root, 'scripts/blueprintCss.ts'), options: { split: production } },
        },
        { test: /\.(woff2?|ttf|eot|svg|png|jpe?g|gif)$/, type: 'asset/resource' },
        // DuckDB's modules with only the exports their start code can reach (scripts/duckdbWasm.ts).
        {
          test: /\.wasm$/,
          type: 'asset/resource',
          generator: { filename: 'duckdb/[name].[contenthash][ext]' },
          use: {
            loader: path.join(root, 'scripts/duckdbWasm.ts'),
            options: { bundle: path.join(duckdbDist, 'duckdb-browser-blocking.mjs') },
          },
        },
        // DuckDB's start code with less work per export (scripts/duckdbGlue.ts).
        { test: /duckdb-browser-blocking\.mjs$/, use: { loader: path.join(root, 'scripts/duckdbGlue.ts') } },
      ],
    },
    optimization: {
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          // Libraries every page needs live in one long-cached chunk next to the entry.
          framework: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-redux|@reduxjs|redux|reselect|immer|react-router|react-router-dom|@blueprintjs|react-transition-group|dom-helpers|@popperjs|@floating-ui|tslib|classnames|zod)[\\/]/,
            name: 'framework',
            chunks: 'initial',
            priority: 20,
          },
          // Charts and the query engine are large and load only when a report needs them.
          plotly: {
            test: /[\\/]node_modules[\\/](plotly\.js|react-plotly\.js|d3-[^\\/]+|@plotly)[\\/]/,
            name: 'plotly',
            chunks: 'async',
            priority: 30,
          },
          // The second part of Blueprint's style sheet, named so that insertStyleSheet can place it.
          blueprintLater: {
            test: /@blueprintjs[\\/]core[\\/]lib[\\/]css[\\/]blueprint\.css$/,
            name: 'blueprint-later',
            chunks: 'async',
            enforce: true,
            priority: 40,
          },
          // DuckDB-WASM's bindings, which only the engine's worker runs. Not comlink, nor the .wasm files' URLs, which the
          // page needs to start the engine: in one chunk, the page's engine start waited for 1.3 MB of script it never
          // runs.
          duckdb: {
            test: /[\\/]node_modules[\\/](@duckdb[\\/]duckdb-wasm|tslib)[\\/].*\.[cm]?js$/,
            name: 'duckdb-wasm',
            chunks: 'async',
            priority: 30,
          },
          // Arrow reads the engine's answers, in the worker and (with the first answer) on the page.
          arrow: {
            test: /[\\/]node_modules[\\/](apache-arrow|flatbuffers)[\\/]/,
            name: 'arrow',
            chunks: 'async',
            priority: 30,
          },
        },
      },
      runtimeChunk: 'single',
    },
    performance: { hints: false },
    plugins: [
      new HtmlWebpackPlugin({ template: './public/index.html' }),
      // Blueprint icons load one by one from these files (src/app/icons.ts), named with the icon set's hash.
      new IconPathsPlugin(),
      new DefinePlugin({ 'process.env.ICON_PATHS_HASH': JSON.stringify(iconPathsHash()) }),
      // Blueprint's icon loader checks names by their form instead of against the list of every name.
      new NormalModuleReplacementPlugin(
        /^\.\/iconNames$/,
        (resource: { request: string; contextInfo: { issuer: string } }) => {
          if (/@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconLoader\.js$/.test(resource.contextInfo.issuer)) {
            resource.request = path.join(root, 'src/app/iconNameCheck.ts');
          }
        },
      ),
      ...(production
        ? [
            new MiniCssExtractPlugin({
              filename: '[name].[contenthash].css',
              chunkFilename: '[name].[contenthash].css',
              insert: insertStyleSheet,
            }),
            // The server sends these copies instead of compressing each answer again (scripts/precompress.ts).
            new PrecompressPlugin([
              { test: /duckdb-eh\.[0-9a-f]+\.wasm$/, quality: 11, window: 24 },
              { test: /\.wasm$/, quality: 7 },
              { test: /\.(js|css)$/, quality: 11 },
            ]),
          ]
        : []),
      ...(refresh ? [new ReactRefreshWebpackPlugin({ overlay: false })] : []),
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true }],
      }),
    ],
    devServer,
    stats: production ? 'errors-warnings' : 'minimal',
  };
}
