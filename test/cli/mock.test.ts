/**
 * `trx-rent mock` serves until SIGTERM, and the CLI works against it (the acceptance flow). The
 * first server is the real process (its SIGTERM is the point); the rest runs in-process.
 */
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './helpers.js';
import { ADDRESS, errorLine, json, runCliInProcess, startCliInProcess, tempDir } from './run.js';

describe('trx-rent mock', { timeout: 60_000 }, () => {
  it('prints URL, key, JWT and memo; prices, buy --wait, preview and withdraw work against it; SIGTERM stops it', async () => {
    const server = await startCli(['mock', '--port', '0', '--seed', '5', '--no-rate-limits', '--json'], /"memo": "[^"]+"\s*}/);
    try {
      const info = JSON.parse(server.output().stdout);
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.api_key).toMatch(/^sk_live_[0-9a-f]{64}$/);
      expect(info.jwt.split('.')).toHaveLength(3);
      const env = { TRX_RENT_BASE_URL: info.url, TRX_RENT_API_KEY: info.api_key };

      const prices = await runCliInProcess(['prices', '--json'], { env });
      expect(prices.code).toBe(0);
      expect(json(prices)[0]).toMatchObject({ resource: 'ENERGY', duration_sec: 3600 });

      const preview = await runCliInProcess(['preview', '65000', '--duration', '30m', '--json'], { env });
      expect(preview.code, preview.stderr).toBe(0);
      expect(json(preview)).toMatchObject({ request: { resource: 'ENERGY', amount: 65000, duration_sec: 1800 }, no_providers: false });
      const previewHuman = await runCliInProcess(['preview', '65k', '--no-json'], { env });
      expect(previewHuman.stdout).toMatch(/^Preview 65,000 energy for 1h\n\s+PROVIDER\s+SUN\/UNIT\s+TIER\s+TOTAL\nbest /);
      const previewMissing = await runCliInProcess(['preview', '--json'], { env });
      expect(previewMissing.code).toBe(2);
      expect(errorLine(previewMissing).message).toBe('missing <amount>');

      const buy = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env, timeoutMs: 30_000 });
      expect(buy.code, buy.stderr).toBe(0);
      expect(json(buy).status).toBe('FILLED');

      const before = json(await runCliInProcess(['balance', '--json'], { env }));
      const withdraw = await runCliInProcess(['withdraw', '50', '--to', ADDRESS], { env });
      expect(withdraw.code).toBe(2);
      expect(json(await runCliInProcess(['balance', '--json'], { env }))).toEqual(before);
    } finally {
      const result = await server.stop();
      expect(result.code).toBe(0);
    }
  });

  it('human output lists the key and the export line; bad options are usage errors', async () => {
    const server = await startCliInProcess(['mock', '--port', '0', '--envelope', '--no-json'], /Press Ctrl\+C to stop/);
    try {
      const { stdout } = server.output();
      expect(stdout).toMatch(/trx-rent mock listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(stdout).toMatch(/API key\s+sk_live_/);
      expect(stdout).toMatch(/options\s+envelope, rate limits on, no chaos/);
      const url = stdout.match(/listening on (\S+)/)![1]!;
      const key = stdout.match(/API key\s+(\S+)/)![1]!;
      // The SDK reads the { data } envelope the live service uses.
      const balance = await runCliInProcess(['balance', '--json'], { env: { TRX_RENT_BASE_URL: url, TRX_RENT_API_KEY: key } });
      expect(json(balance).trx).toBe(1_000_000_000);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
    expect((await runCliInProcess(['mock', '--chaos', '2'])).code).toBe(2);
    expect((await runCliInProcess(['mock', '--port', 'http'])).code).toBe(2);
  });

  it('--wallet never follows a symlink, dangling or not: refused, nothing written where it points', async () => {
    const dir = tempDir();
    const dangling = join(dir, 'key.txt');
    const target = join(dir, 'elsewhere.txt');
    symlinkSync(target, dangling);
    const stop = () => new Promise<string>((resolve) => setTimeout(() => resolve('SIGINT'), 5_000));
    const r = await runCliInProcess(['mock', '--port', '0', '--quiet', '--wallet', dangling, '--json'], { untilSignal: stop, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLine(r).message).toMatch(/--wallet .*key\.txt is a symbolic link/);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    // A link to an existing key file is refused too (its key is not read through the link).
    writeFileSync(target, `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    const linked = await runCliInProcess(['mock', '--port', '0', '--quiet', '--wallet', dangling, '--json'], { untilSignal: stop, timeoutMs: 30_000 });
    expect(linked.code, linked.stderr).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe(`${'ab'.repeat(32)}\n`);
    // A plain new file is created 0600 with a key, as before.
    const plain = join(dir, 'new.txt');
    const ok = await runCliInProcess(['mock', '--port', '0', '--quiet', '--wallet', plain, '--json'], {
      untilSignal: () => new Promise((resolve) => setTimeout(() => resolve('SIGINT'), 1_000)),
      timeoutMs: 30_000,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(plain, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(lstatSync(plain).mode & 0o777).toBe(0o600);
  });
});
