import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { BIN, cleanEnv, collect } from './helpers.js';

/** The issue's own words: `trx-rent prices --json | jq` works (a real pipe into the real jq). */
const hasJq = spawnSync('jq', ['--version']).status === 0;
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false });
});
afterAll(() => mock.close());

describe.skipIf(!hasJq)('piping into jq', () => {
  it('prices --json | jq reads every provider', async () => {
    // async spawn: the mock answers from this process, so it must not be blocked
    const child = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" prices --json | jq -e '[.[].provider] | length'`], {
      env: cleanEnv({ TRX_RENT_BASE_URL: mock.url }),
    });
    const r = await collect(child, {});
    expect(r.code, r.stderr).toBe(0);
    expect(Number(r.stdout.trim())).toBeGreaterThanOrEqual(5);
  });
});
