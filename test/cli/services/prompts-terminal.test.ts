/**
 * A question asked at a terminal stays on the screen while it waits, whatever spinner or
 * progress line the command had running: the built CLI in a pseudo-terminal, its screen rendered
 * by a terminal emulator (test/cli/screen.ts), as a person sees it. `send usdt --batch` asks
 * "Pay N rows for about … SUN?" while its "Checking the rows…" spinner runs; the question must
 * be on the screen, at the cursor, for as long as the CLI waits, and answering it runs the batch.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_TIMEOUT_MS } from '../../../scripts/lib/tools.mjs';
import { type MockServer, startMockServer } from '../../../src/mock/index.js';
import { account, paid, payouts, sender } from '../../workflows/payouts-helpers.js';
import { loadXterm, screenPty } from '../screen.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

let mock: MockServer;
beforeAll(async () => {
  await loadXterm();
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3838, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  await mock?.close();
});

/** Lets the CLI run as it would while a person reads: a spinner draws a frame every 80 ms, so this is many frames. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasScript)('a question at a terminal, on the rendered screen', { timeout: 120_000 }, () => {
  it('send usdt --batch: "Pay N rows …? (y/N)" stays on the screen while the CLI waits; y runs the batch', async () => {
    const s = sender(mock, 61);
    const acct = account(mock, '100000');
    const rows = payouts(mock, 3, 'screen');
    const dir = mkdtempSync(join(tmpdir(), 'prompt-screen-'));
    const csv = join(dir, 'payouts.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
    const key = join(dir, 'key');
    writeFileSync(key, `${s.privateKey}\n`, { mode: 0o600 });

    const term = await screenPty(['send', 'usdt', '--batch', csv, '--key-file', key, '--concurrency', '1'], {
      TRX_RENT_BASE_URL: mock.url,
      TRX_RENT_API_KEY: acct.apiKey,
      TRX_RENT_TRON_NODE: mock.url,
    });
    await term.waitFor(/Pay 3 rows for about [\d,.]+ SUN/);
    // The CLI now waits for y/N. A spinner left running would redraw its line many times over.
    await pause(1_500);
    const question = await term.screen.cursorLine();
    expect(question, await term.screen.text()).toMatch(/\? Pay 3 rows for about [\d,.]+ SUN .*\(y\/N\)/);
    const screen = await term.screen.text();
    // The plan above it is there too, and no spinner frame is on the screen.
    expect(screen).toMatch(/Batch pb-[0-9a-f]{16}: 3 rows/);
    expect(screen).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(paid(mock, s.address).size).toBe(0);

    term.type('y\r');
    const done = await term.waitFor(/✓ 3 confirmed, 0 failed/);
    // The answered question stays in the scrollback above the report, with its answer.
    expect(done).toMatch(/Pay 3 rows for about [\d,.]+ SUN .*\? Yes\n✓ 3 confirmed/);
    expect(await term.exited).toBe(0);
    const chain = paid(mock, s.address);
    expect(rows.every((r) => chain.get(r.to)?.count === 1)).toBe(true);
  });
});
