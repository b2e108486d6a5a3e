/**
 * The small things a newcomer met in the first hour (issue 24): each error says what to do in
 * the CLI's own terms.
 */
import { describe, expect, it } from 'vitest';
import { errorLine, runCliInProcess } from './run.js';

describe('errors a newcomer can act on', () => {
  it('--api-key is refused with where keys go (TRX_RENT_API_KEY, --api-key-file, login)', async () => {
    const r = await runCliInProcess(['--api-key', 'sk_live_secret', 'balance', '--json']);
    expect(r.code).toBe(2);
    const error = errorLine(r);
    expect(error.hint).toMatch(/TRX_RENT_API_KEY/);
    expect(error.hint).toMatch(/--api-key-file/);
    expect(r.stderr).not.toContain('sk_live_secret');
  });

  it('keys list explains that keys cannot be listed, and what to do', async () => {
    const r = await runCliInProcess(['keys', 'list', '--json'], { env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9', TRX_RENT_API_KEY: 'sk_live_x' } });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toMatch(/cannot be listed/);
    expect(errorLine(r).hint).toMatch(/keys create.*keys revoke/);
  });

  it("-d 45s suggests 5m, in the CLI's units", async () => {
    const r = await runCliInProcess(['--mock', 'preview', '65000', '-d', '45s', '--json']);
    expect(r.code).toBe(2);
    expect(errorLine(r).hint).toMatch(/--duration 5m/);
    expect(errorLine(r).hint).not.toMatch(/\b300\b/);
  });

  it('a plain-http base URL tells a CLI user to use https, not an SDK option', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env: { TRX_RENT_BASE_URL: 'http://api.example.com', TRX_RENT_API_KEY: 'sk_live_x' } });
    expect(r.code).not.toBe(0);
    const error = errorLine(r);
    expect(error.code).toBe('INSECURE_TRANSPORT');
    expect(error.message).not.toMatch(/allowInsecureHttp/);
    expect(error.hint).toMatch(/https:\/\//);
  });

  it('deposit prepare points at `trx-rent deposit submit`', async () => {
    const r = await runCliInProcess(['--mock', 'deposit', 'prepare', '10', '--no-json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/next\s+.*trx-rent deposit submit --file tx\.json/);
    expect(r.stdout).not.toMatch(/\/api\/v1\/deposit\/submit/);
  });

  it('status does not say the profile twice', async () => {
    const r = await runCliInProcess(['--mock', 'status', '--no-json']);
    expect(r.stdout).not.toMatch(/profile (\S+) \(profile \1\)/);
  });
});

describe('login after a rejected key', () => {
  it('asks again at the terminal (the second key works and is saved)', async () => {
    const { startMockServer } = await import('../../src/mock/index.js');
    const { PassThrough } = await import('node:stream');
    const { tempDir } = await import('./run.js');
    const mock = await startMockServer({ port: 0, rateLimits: false });
    try {
      const keyboard = new PassThrough();
      const configDir = tempDir();
      const run = runCliInProcess(['login', '--base-url', mock.url], {
        env: { TERM: 'xterm', NO_COLOR: '1' },
        isTTY: true,
        columns: 120,
        keyboard,
        configDir,
        timeoutMs: 20_000,
      });
      await new Promise((r) => setTimeout(r, 1_000));
      keyboard.write('sk_live_wrong_key_000\r');
      await new Promise((r) => setTimeout(r, 2_500));
      keyboard.write(`${mock.apiKey}\r`);
      const r = await run;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).toMatch(/rejected this key; try again/);
      expect(r.stdout + r.stderr).toContain('Logged in to');
      expect(r.stdout + r.stderr).not.toContain(mock.apiKey);
    } finally {
      await mock.close();
    }
  });
});
