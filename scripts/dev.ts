import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Development: the API server under `tsx watch` on API_PORT (default 8081) and webpack-dev-server
 * with hot reload on PORT (default 8080), proxying /api and /session to it.
 */
const apiPort = process.env.API_PORT ?? '8081';
// Browsers reach the API through webpack-dev-server's proxy, which keeps their Host: links in e-mails and the
// allowed Host are the dev server's address, not the API server's own.
const publicUrl = process.env.PUBLIC_URL || `http://127.0.0.1:${process.env.PORT ?? '8080'}`;
const children: ChildProcess[] = [];

function run(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  children.push(child);
}

run([require.resolve('tsx/cli'), 'watch', '--clear-screen=false', 'server/main.ts'], {
  NODE_ENV: 'development',
  PORT: apiPort,
  PUBLIC_URL: publicUrl,
});
run(['--import', 'tsx', require.resolve('webpack-cli/bin/cli.js'), 'serve', '--mode', 'development'], {
  API_PORT: apiPort,
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => children.forEach((child) => child.kill(signal)));
}
