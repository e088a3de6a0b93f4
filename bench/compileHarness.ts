import webpack, { type Configuration } from 'webpack';

/** Builds a benchmark's harness pages with webpack; rejects with webpack's errors. */
export function compileHarness(config: Configuration): Promise<void> {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) return reject(error ?? new Error('webpack gave no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve();
    });
  });
}
