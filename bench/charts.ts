import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Configuration } from 'webpack';
import appConfig from '../webpack.config';
import { median } from './benchData';
import { launchOptions } from './browser';
import { compileHarness } from './compileHarness';
import type { ChartsInput, ChartsResult, ChartVariant } from './harness/charts';

/**
 * npm run bench:charts [-- --widths 400,612,900 --rounds 5]
 * The graph widgets' charts (the app's figure builders and plotly bundle) drawn one by one in headless Chromium, as
 * drawn and in variants (harness/charts.ts: without the legend, without the date axis' check of labels crossing the
 * chart's edge, with the value axis' check); prints each variant's time against the charts as drawn, and whether it
 * showed the same tick labels.
 */
const { values } = parseArgs({
  options: {
    widths: { type: 'string', default: '400,612,900' },
    rounds: { type: 'string', default: '5' },
  },
});
const input: ChartsInput = { widths: values.widths.split(',').map(Number), rounds: Number(values.rounds) };

const harnessDir = path.join(__dirname, 'out/charts-harness');

/** The app's webpack rules and plotly bundle, with the harness as the one entry and page. */
function harnessConfig(): Configuration {
  const base = appConfig({}, { mode: 'production' });
  return {
    ...base,
    entry: { chartsBench: path.join(__dirname, 'harness/charts.ts') },
    output: { ...base.output, path: harnessDir, publicPath: '/' },
    devtool: false,
    optimization: { ...base.optimization, runtimeChunk: false, splitChunks: false },
    // plotly's registry imports a style sheet; the app's rule extracts it.
    plugins: [new HtmlWebpackPlugin({ title: 'charts bench' }), new MiniCssExtractPlugin()],
  };
}

function serve(): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = path.join(harnessDir, name === '/' ? 'index.html' : path.normalize(name));
    if (!file.startsWith(harnessDir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    const types: Record<string, string> = { '.html': 'text/html', '.css': 'text/css' };
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'text/javascript' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function report({ charts, variants }: ChartsResult): void {
  const drawn = median(variants['as drawn'].roundMs);
  console.log(`\n${charts} charts per round, widths ${input.widths.join(' / ')} px, ${input.rounds} rounds\n`);
  console.log('| variant | ms per chart (median round) | rounds (ms) | / as drawn | labels hidden | same labels |');
  console.log('|---|---|---|---|---|---|');
  // In the harness' order (CHART_VARIANTS): its module draws with plotly, which Node cannot load.
  for (const variant of Object.keys(variants) as ChartVariant[]) {
    const { roundMs, hiddenLabels, sameLabels } = variants[variant];
    const round = median(roundMs);
    console.log(
      `| ${variant} | ${(round / charts).toFixed(1)} | ${roundMs.map((ms) => ms.toFixed(0)).join(' / ')} | ` +
        `${(round / drawn).toFixed(2)} | ${hiddenLabels} | ${sameLabels ? 'yes' : 'no'} |`,
    );
  }
}

async function main() {
  await compileHarness(harnessConfig());
  const server = await serve();
  const browser = await chromium.launch(launchOptions);
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => document.title === 'charts bench ready');
    const result = await page.evaluate(
      (arg) => (window as unknown as { chartsBench(i: ChartsInput): Promise<ChartsResult> }).chartsBench(arg),
      input,
    );
    console.log(
      `${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
    report(result);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
