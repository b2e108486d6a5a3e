/**
 * Rule 4: the CLI is terminal-safe. Text from a server (provider names, error messages,
 * addresses) reaches a terminal with every control and escape sequence stripped; `--json` stays
 * exact JSON, escapes kept as data. (The CLI runs in-process.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/run.js';
import { CONTROL, type Hostile, hostileServer, json } from './hostile.js';

const KEY = `sk_live_${'c3'.repeat(32)}`;
// Set the window title, clear the screen, hide the cursor, a bell, a carriage return, an OSC 8 link.
const EVIL = 'evil\u001b]0;owned\u0007\u001b[2J\u001b[?25l\u0007\r\u009b31m\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\';
const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function prices() {
  return [
    {
      provider: EVIL,
      is_market: true,
      energy_prices: [{ duration_sec: 3600, price_sun: 50 }],
      bandwidth_prices: [],
      available_energy: 1_000_000,
      available_bandwidth: 0,
      fetched_at: '2026-11-20T00:00:00.000Z',
    },
  ];
}

describe('security: terminal-safe CLI', () => {
  it('escape codes in provider names never reach the terminal; --json keeps them as exact data', async () => {
    const server = await hostileServer((_req, res) => json(res, 200, prices()));
    servers.push(server);
    const env = { TRX_RENT_BASE_URL: server.url, TRX_RENT_API_KEY: KEY };
    const human = await runCliInProcess(['prices', '--no-json'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('evil');
    expect(human.stdout).not.toMatch(CONTROL);
    const piped = await runCliInProcess(['prices', '--json'], { env });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)[0].provider).toBe(EVIL);
  });

  it("escape codes in a server's error message are stripped on stderr", async () => {
    const server = await hostileServer((_req, res) => json(res, 400, { error: { code: 'VALIDATION_ERROR', message: `bad ${EVIL}`, details: { field: EVIL } } }));
    servers.push(server);
    const run = await runCliInProcess(['balance', '--no-json'], { env: { TRX_RENT_BASE_URL: server.url, TRX_RENT_API_KEY: KEY } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('bad evil');
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stdout).not.toMatch(CONTROL);
  });
});
