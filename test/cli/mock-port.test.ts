/**
 * `trx-rent mock` with 8787 taken (by the mock an earlier step of the README started, or anything
 * else): without --port it listens on a free port and says which on stderr; a port asked for with
 * --port that is in use is a usage error naming it, never a hang or an unexplained crash.
 */
import { type Server, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, runCliInProcess, startCliInProcess } from './run.js';

/** Hold `port` for the test; when something else already holds it, it is taken all the same. */
function hold(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

let held: Server | undefined;
beforeAll(async () => {
  held = await hold(8787);
});
afterAll(async () => {
  await new Promise((r) => (held ? held.close(r) : r(undefined)));
});

describe('trx-rent mock when its port is taken', { timeout: 60_000 }, () => {
  it('without --port: another port, said on stderr with the URL; the JSON names it', async () => {
    const server = await startCliInProcess(['mock', '--json'], /"memo": "[^"]+"\s*}/);
    try {
      const info = JSON.parse(server.output().stdout) as { url: string };
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.url).not.toBe('http://127.0.0.1:8787');
      expect(server.output().stderr).toContain(`port 8787 is taken (another mock?): listening on ${info.url} instead`);
      expect((await fetch(`${info.url}/api/v1/prices`, { headers: { host: new URL(info.url).host } })).status).toBeLessThan(500);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it('--port 8787 taken: exit 2, the port named, and what to do', async () => {
    const r = await runCliInProcess(['mock', '--port', '8787', '--json'], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    expect(errorLine(r)).toMatchObject({ code: 'USAGE_ERROR', message: '--port 8787: the port is in use on 127.0.0.1' });
    expect(errorLine(r).hint).toContain('--port 0');
  });
});
