// The mock's POST /api/v1/orders against a bare node:http server, each server in its own process
// (benc./mock-process-prof.mjs, forked) and the load from a third (autocannon): what a user's load test
// against `trx-rent mock` meets. In the `mock` section both servers share the bench's process,
// which flatters neither the same way (the mock's background work and heap land on the bare
// server's thread), so the two sections' ratios differ. The bare server answers the mock's own
// answer bytes. Rounds alternate which side goes first, with a quiet gap before each so the
// mock's due work (selection, fills, verification) does not overlap a bare round; the ratio is
// of the sides' mean rates.
//   BENCH_MOCK_CPU_PROF=DIR  runs the mock with node --cpu-prof into DIR (a profile of the mock alone)
import { fork } from 'node:child_process';
import { CONNECTIONS, load } from './mock.mjs';

const ROUND_S = 3;
const ROUNDS = 4;
const GAP_MS = 1500;

function start(kind, execArgv = []) {
  const child = fork(new URL('./mock-process-prof.mjs', import.meta.url), [kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return {
    child,
    ready: new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`bench ${kind} server exited (${code})`)));
      child.once('message', resolve);
    }),
  };
}

function stop({ child }) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.disconnect();
  });
}

/** The child's CPU time so far (user + system), in µs. */
function cpuOf({ child }) {
  return new Promise((resolve) => {
    const on = (message) => {
      if (!message?.cpu) return;
      child.off('message', on);
      resolve(message.cpu.user + message.cpu.system);
    };
    child.on('message', on);
    child.send({ cpu: true });
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run() {
  const prof = process.env.BENCH_MOCK_CPU_PROF;
  const mock = start('mock', prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []);
  const bare = start('bare');
  try {
    const { port: mockPort, apiKey } = await mock.ready;
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const body = JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' });
    const mockUrl = `http://127.0.0.1:${mockPort}/api/v1/orders`;
    const first = await fetch(mockUrl, { method: 'POST', headers, body });
    const answer = await first.text();
    if (first.status !== 201) throw new Error(`the mock answered ${first.status}: ${answer}`);
    bare.child.send({ status: first.status, body: answer });
    const { port: barePort } = await bare.ready;
    const targets = {
      mock: { url: mockUrl, method: 'POST', body, headers },
      bare: { url: `http://127.0.0.1:${barePort}/api/v1/orders`, method: 'POST', body, headers },
    };
    // Warm-up: both JITs, and the mock's first orders' due work.
    await load(targets.mock, 1);
    await load(targets.bare, 1);
    const totals = { mock: { rps: 0, total: 0, non2xx: 0, errors: 0 }, bare: { rps: 0, total: 0, non2xx: 0, errors: 0 } };
    // CPU per request: each server's CPU time over all rounds (the mock's includes the due work
    // its orders left, run in the gaps, and its idle timers) over the requests it answered.
    const cpuBefore = { mock: await cpuOf(mock), bare: await cpuOf(bare) };
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 ? ['bare', 'mock'] : ['mock', 'bare']) {
        await pause(GAP_MS);
        const result = await load(targets[side], ROUND_S);
        totals[side].rps += result.rps / ROUNDS;
        totals[side].total += result.total;
        totals[side].non2xx += result.non2xx;
        totals[side].errors += result.errors;
      }
    }
    await pause(GAP_MS);
    const cpuPer = { mock: ((await cpuOf(mock)) - cpuBefore.mock) / totals.mock.total, bare: ((await cpuOf(bare)) - cpuBefore.bare) / totals.bare.total };
    const note = (t) => (t.non2xx || t.errors ? ` (${t.non2xx} non-2xx, ${t.errors} errors)` : '');
    const ratio = totals.mock.rps / totals.bare.rps;
    return {
      title: `Mock server vs bare node:http, each in its own process, same bytes, autocannon in a third, ${CONNECTIONS} connections, ${ROUNDS}x${ROUND_S} s per side`,
      rows: [
        {
          name: `POST /api/v1/orders (${Buffer.byteLength(answer)} B)${note(totals.mock)}${note(totals.bare) ? ` bare${note(totals.bare)}` : ''}`,
          value: totals.mock.rps,
          unit: 'req/s',
          baseline: totals.bare.rps,
          ratio,
          target: '>= 0.45x',
          ok: ratio >= 0.45 && !totals.mock.non2xx && !totals.mock.errors,
        },
        {
          name: 'POST /api/v1/orders: server CPU per request (bare vs mock, inverse ratio)',
          value: cpuPer.mock,
          unit: 'µs',
          baseline: cpuPer.bare,
          ratio: cpuPer.bare / cpuPer.mock,
        },
      ],
    };
  } finally {
    await Promise.all([stop(mock), stop(bare)]);
  }
}
