/** @jest-environment ./test/nodeEnvironment.js */
import net from 'node:net';
import { ephemeralRange, freePort } from '../scripts/freePort';

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort', () => {
  it('gives ports a server can bind, outside the range outgoing connections take theirs from', async () => {
    const [low, high] = ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port >= 20_000 && (port < low || port > high) && port <= 65_535).toBe(true);
    }
    const server = await listenOn(ports[0]);
    await new Promise((resolve) => server.close(resolve));
  });
});
