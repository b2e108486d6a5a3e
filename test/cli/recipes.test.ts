/**
 * The CLI README's scripting recipes, run as written: the sh block under "## Scripting" is
 * executed by bash with `set -euo pipefail`, `trx-rent` on PATH being the built CLI, against a
 * mock on 127.0.0.1. A recipe that stops working (a renamed flag, a changed shape) fails here.
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { ADDRESS, BIN, ROOT, cleanEnv, collect, tempDir } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 8, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
});
afterAll(async () => {
  await mock?.close();
});

function recipes(): string {
  const readme = readFileSync(join(ROOT, 'src/cli/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Scripting'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('src/cli/README.md: no sh block under "## Scripting"');
  return block;
}

describe('the CLI README scripting recipes', () => {
  it('has three, and each runs to exit 0 with the output it promises', { timeout: 60_000 }, async () => {
    const block = recipes();
    expect(block.match(/^# \d\. /gm)).toHaveLength(3);
    const bin = tempDir('trx-rent-recipes-');
    writeFileSync(join(bin, 'trx-rent'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'trx-rent'), 0o755);
    // Twice: the second run's recipe 1 lists the order the first run's recipe 2 placed.
    const script = `set -euo pipefail\nfor run in 1 2; do\n${block}\necho "best=$best failed=$failed"\ndone\n`;
    const env = { PATH: `${bin}:${process.env.PATH}`, ADDR: ADDRESS, TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const r = await collect(spawn('bash', ['-c', script], { cwd: ROOT, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] }), { timeoutMs: 55_000 });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    // run 1: recipe 1 (no order yet: an empty line), recipe 2's JSON, the variables of recipe 3
    const firstOrder = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'), r.stdout.indexOf('}') + 1));
    expect(firstOrder).toEqual({ id: expect.any(String), status: 'FILLED' });
    expect(lines).toContain(`${firstOrder.id}`); // run 2's recipe 1: the FILLED id, bare
    expect(lines.filter((l) => /^best=\d+ failed=0$/.test(l))).toHaveLength(2);
  });
});
