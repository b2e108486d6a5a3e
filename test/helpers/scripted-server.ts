import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Reply = { status: number; body?: unknown; headers?: Record<string, string>; raw?: string; delayMs?: number } | 'drop';

/**
 * A loopback HTTP server that answers from a script, one reply per request, and records every
 * request. For exact control of retries, timeouts and dropped connections in SDK tests.
 */
export async function scriptedServer(handler: (req: RecordedRequest, index: number) => Reply) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(recorded);
      const reply = handler(recorded, requests.length - 1);
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(text);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const error = (code: string, message = code, details?: Record<string, unknown>) => ({
  error: { code, message, ...(details ? { details } : {}) },
});
