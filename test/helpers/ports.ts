/** Loopback ports for tests: one free right now (`freePort`: the OS picks it, closed again before it is returned), one held (`holdPort`). */
import { type Server, createServer } from 'node:net';

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Hold `port` on loopback until the returned server is closed; undefined when something else
 * holds it already (the port is taken either way, which is what a test of a taken port needs).
 */
export function holdPort(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
