import fs from 'node:fs';
import net from 'node:net';

/** The lowest port handed out here; below it sit the ports services are commonly configured on. */
const LOWEST = 20_000;
const ATTEMPTS = 50;

/**
 * The range the system takes outgoing connections' local ports from: Linux's setting, else the
 * IANA range that macOS and Windows use.
 */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: fall through to the IANA range.
  }
  return [49_152, 65_535];
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port on the loopback interface, chosen outside the system's range for outgoing
 * connections. A port from that range (what `listen(0)` gives) can be taken between the moment it
 * is found free and the moment a server binds it: by any outgoing connection, and in particular by
 * a client polling the not-yet-started server, whose socket the kernel may give that very port and
 * connect to itself. CI's end-to-end run failed once that way (EADDRINUSE at the server's start).
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const spans: [number, number][] = [
    [LOWEST, low - 1],
    [high + 1, 65_535],
  ].filter(([from, to]) => to - from >= 1_000) as [number, number][];
  if (spans.length === 0) throw new Error(`No ports outside the outgoing range ${low}-${high}`);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const [from, to] = spans[Math.floor(Math.random() * spans.length)];
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await listens(port)) return port;
  }
  throw new Error(`No free port found in ${ATTEMPTS} attempts outside ${low}-${high}`);
}
