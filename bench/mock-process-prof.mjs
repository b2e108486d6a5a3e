// One server of the mock bench's separate-process rows, forked by bench/mock.mjs so that neither
// server shares a process (or a heap, or an event loop) with the bench or with the other:
//   node bench/mock-process.mjs mock  - the built mock (dist/), as the bench's in-process rows
//                                        start it: rate limits off, money and supply for every order
//   node bench/mock-process.mjs bare  - a bare node:http server answering the bytes the parent
//                                        sends it over IPC ({ status, body }) to every request
// Each tells the parent its port over IPC ({ port }) and exits when the parent disconnects.
// `node --cpu-prof bench/mock-process.mjs mock` profiles the mock alone (see DECISIONS.md).
import { createServer } from 'node:http';

const kind = process.argv[2];

async function startMock() {
  const { startMockServer, PROVIDERS } = await import(new URL('../.tmp/mp/mock.js', import.meta.url).href);
  const mock = await startMockServer({ rateLimits: false, seed: 1, demoBalance: { trx_sun: 4_000_000_000_000_000 }, market: { offlineRate: 0 } });
  for (const p of PROVIDERS) mock.state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
  return { port: mock.port, apiKey: mock.apiKey, close: () => mock.close() };
}

async function startBare() {
  // The bytes to answer come first: the parent reads them from the mock's own answer.
  const { status, body } = await new Promise((resolve) => process.once('message', resolve));
  const bytes = Buffer.from(body);
  const server = createServer((req, res) => {
    // Drain the request body before answering, as any real server would.
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (kind !== 'mock' && kind !== 'bare') {
  console.error('usage: node bench/mock-process.mjs mock|bare (forked, with an IPC channel)');
  process.exit(2);
}
const server = kind === 'mock' ? await startMock() : await startBare();
process.send?.({ port: server.port, apiKey: server.apiKey });
// The parent asks for this process's CPU time ({ cpu: true }) around each round: CPU per request
// is the figure a loaded machine disturbs least (a starved server answers less, not dearer).
process.on('message', (message) => {
  if (message?.cpu) process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', async () => {
  await server.close();
  process.exit(0);
});
