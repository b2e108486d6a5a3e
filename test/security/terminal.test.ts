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
    const server = await hostileServer((_req, res) =>
      json(res, 400, { error: { code: 'VALIDATION_ERROR', message: `bad ${EVIL}`, details: { field: EVIL } } }),
    );
    servers.push(server);
    const run = await runCliInProcess(['balance', '--no-json'], { env: { TRX_RENT_BASE_URL: server.url, TRX_RENT_API_KEY: KEY } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('bad evil');
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stdout).not.toMatch(CONTROL);
  });
});

describe('security: one sanitiser for everything people see', () => {
  it('webhooks listen prints hostile payloads and rejection reasons without their escapes; --json lines keep them as data', async () => {
    const { signWebhookPayload } = await import('../../src/webhooks/index.js');
    const { startCliInProcess } = await import('../cli/run.js');
    const secret = 'e'.repeat(64);
    for (const mode of ['--no-json', '--json'] as const) {
      const listener = await startCliInProcess(['webhooks', 'listen', '--port', '0', mode], /Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks)/, {
        env: { TRX_RENT_WEBHOOK_SECRET: secret },
      });
      const url = listener.match[1]!;
      const raw = JSON.stringify({ event: `order.filled${EVIL}`, data: { id: `ord_${EVIL}` }, timestamp: Math.floor(Date.now() / 1000) });
      const ok = await fetch(url, { method: 'POST', headers: { 'x-service-signature': await signWebhookPayload(raw, secret) }, body: raw });
      expect(ok.status).toBe(200);
      const bad = await fetch(url, { method: 'POST', headers: { 'x-service-signature': `sha256=${'0'.repeat(64)}` }, body: raw });
      expect(bad.status).toBe(400);
      const result = await listener.stop();
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(CONTROL);
      expect(result.stdout).not.toMatch(CONTROL);
      if (mode === '--json') {
        const lines = result.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines[0].body).toEqual(JSON.parse(raw));
      } else {
        expect(result.stdout).toContain('order.filledevillink');
        expect(result.stdout).toContain('rejected');
      }
    }
  });

  it('a --json error on stderr is exact JSON with terminal-safe escapes', async () => {
    const server = await hostileServer((_req, res) => json(res, 400, { error: { code: 'VALIDATION_ERROR', message: `bad ${EVIL}\u202e` } }));
    servers.push(server);
    const run = await runCliInProcess(['balance', '--json'], { env: { TRX_RENT_BASE_URL: server.url, TRX_RENT_API_KEY: KEY } });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stderr).not.toContain('\u202e');
    const line = run.stderr.split('\n').find((l) => l.startsWith('{"error"'))!;
    expect(JSON.parse(line).error.message).toBe(`bad ${EVIL}\u202e`);
  });

  it('sanitizeText strips every kind of sequence and keeps only our own (marked) colours; safeJson round-trips', async () => {
    const { safeJson, sanitizeText } = await import('../../src/cli/sanitize.js');
    expect(sanitizeText(EVIL)).toBe('evillink');
    expect(sanitizeText('a\u001bPdcs\u001b\\b\u001b_apc\u009cc\u001b7d\u001bce\u202eabc\u2066f\tg\nh\u0008')).toBe('abcdeabcf\tg\nh');
    const { makeStyles } = await import('../../src/cli/styles.js');
    const ours = makeStyles(true);
    expect(sanitizeText(`${ours.bold('bold')} \u001b[8mhidden\u001b[2J`, { keepStyles: true })).toBe('\u001b[1mbold\u001b[22m hidden');
    // The same codes without our per-run mark (as a server would send them) do not pass.
    expect(sanitizeText('\u001b[1mbold\u001b[22m \u001b[31mred\u001b[39m', { keepStyles: true })).toBe('bold red');
    expect(sanitizeText('\u001b[1mbold\u001b[22m')).toBe('bold');
    const value = { s: `${EVIL}\u202e\u2028`, n: 1 };
    expect(JSON.parse(safeJson(value))).toEqual(value);
    expect(safeJson(value)).not.toMatch(CONTROL);
  });
});
