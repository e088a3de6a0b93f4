import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { DEFAULT_ROWS, DEFAULT_SEED, generateWorkspaceDatasets, todayUtc } from '../server/datasets/generate';

/**
 * Regenerates a workspace's demo datasets at any size:
 *   npm run datasets -- --workspace 1 [--rows 1000000] [--seed 2] [--end-date 2026-11-21]
 * Files go to DATA_DIR/datasets/<workspace>/ (replacing the previous ones in one rename); prints time and sizes.
 */
const usage = 'Usage: npm run datasets -- --workspace ID [--rows N] [--seed S] [--end-date YYYY-MM-DD]';

const { values } = parseArgs({
  options: {
    workspace: { type: 'string' },
    rows: { type: 'string' },
    seed: { type: 'string' },
    'end-date': { type: 'string' },
  },
});

const workspaceId = Number(values.workspace);
if (!Number.isInteger(workspaceId) || workspaceId < 1) {
  console.error(usage);
  process.exit(2);
}
const params = {
  rows: values.rows === undefined ? DEFAULT_ROWS : Number(values.rows),
  seed: values.seed === undefined ? DEFAULT_SEED + workspaceId : Number(values.seed),
  endDate: values['end-date'] ?? todayUtc(),
};

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

async function main() {
  // A command-line tool, not a server: it mails no links, so production's PUBLIC_URL is not needed.
  const config = loadConfig({ ...process.env, PUBLIC_URL: process.env.PUBLIC_URL || 'http://localhost' });
  const started = performance.now();
  const manifest = await generateWorkspaceDatasets(config.dataDir, workspaceId, params);
  const seconds = (performance.now() - started) / 1000;
  const totals = { rows: 0, parquet: 0, arrow: 0, gzip: 0 };
  console.log(['dataset', 'rows', 'parquet', 'arrow', 'arrow.gz'].join('\t'));
  for (const [id, entry] of Object.entries(manifest.datasets)) {
    console.log([id, entry.rows, mib(entry.parquetBytes), mib(entry.arrowBytes), mib(entry.arrowGzipBytes)].join('\t'));
    totals.rows += entry.rows;
    totals.parquet += entry.parquetBytes;
    totals.arrow += entry.arrowBytes;
    totals.gzip += entry.arrowGzipBytes;
  }
  console.log(['total', totals.rows, mib(totals.parquet), mib(totals.arrow), mib(totals.gzip)].join('\t'));
  console.log(
    `Generated workspace ${workspaceId} (rows ${params.rows}, seed ${params.seed}) in ${seconds.toFixed(1)} s`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
