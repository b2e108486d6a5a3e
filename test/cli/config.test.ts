/**
 * login, config, profiles and the settings precedence (flag > environment > profile), each run
 * with its own TRX_RENT_CONFIG_DIR so the real home directory is never touched.
 */
import { readFileSync, statSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { errorLine, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let other: MockServer;

beforeAll(async () => {
  [mock, other] = await Promise.all([
    startMockServer({ port: 0, rateLimits: false, seed: 11 }),
    startMockServer({ port: 0, rateLimits: false, seed: 12, demoBalance: { trx_sun: 5_000_000 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), other?.close()]);
});

describe('login', () => {
  it('checks the key with a real call, saves it to a 0600 file in a 0700 dir, and never prints it', async () => {
    const configDir = join(tempDir(), 'cfg');
    const r = await runCliInProcess(['login', '--base-url', mock.url, '--json'], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    expect(r.code, r.stderr).toBe(0);
    const result = json(r);
    expect(result).toMatchObject({ profile: 'default', base_url: mock.url, saved: true, current: true, balance_sun: 1_000_000_000 });
    expect(r.stdout + r.stderr).not.toContain(mock.apiKey);
    const file = result.config_path as string;
    expect(file.startsWith(configDir)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.profiles.default).toEqual({ base_url: mock.url, api_key: mock.apiKey });

    // The saved profile now serves commands with no flags or environment.
    const balance = await runCliInProcess(['balance', '--json'], { configDir });
    expect(balance.code, balance.stderr).toBe(0);
    expect(json(balance).trx).toBe(1_000_000_000);
  });

  it('a rejected key exits 3 and saves nothing', async () => {
    const configDir = tempDir();
    const r = await runCliInProcess(['login', '--base-url', mock.url, '--json'], {
      configDir,
      env: { TRX_RENT_API_KEY: `sk_live_${'0'.repeat(64)}` },
    });
    expect(r.code).toBe(3);
    expect(errorLine(r).message).toContain('nothing was saved');
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });

  it('reads the key from --api-key-file or stdin (--with-token), never from an argument value', async () => {
    const configDir = tempDir();
    const keyFile = join(configDir, 'key.txt');
    writeFileSync(keyFile, `${mock.apiKey}\n`);
    chmodSync(keyFile, 0o644);
    const fromFile = await runCliInProcess(['login', '--profile', 'work', '--base-url', mock.url, '--api-key-file', keyFile, '--json'], { configDir });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stderr).toContain('readable by other users');
    const fromStdin = await runCliInProcess(['login', '--profile', 'other', '--base-url', other.url, '--with-token', '--json'], {
      configDir,
      input: `${other.apiKey}\n`,
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(json(fromStdin)).toMatchObject({ profile: 'other', current: false });
    // There is no --api-key option at all.
    const flag = await runCliInProcess(['login', '--api-key', mock.apiKey], { configDir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--api-key'");
    expect(flag.stderr).not.toContain(mock.apiKey);
  });

  it('without a terminal and without a key: a usage error naming the ways, no prompt, no hang', async () => {
    const r = await runCliInProcess(['login', '--base-url', mock.url, '--json'], { timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toMatch(/missing an API key/);
  });
});

describe('settings precedence: flag > environment > profile', () => {
  it('uses the profile, then the environment over it, then the flag over both', async () => {
    const configDir = tempDir();
    // Profile "default" points at `other` (5 TRX); `mock` has 1 000 TRX.
    expect((await runCliInProcess(['login', '--base-url', other.url], { configDir, env: { TRX_RENT_API_KEY: other.apiKey } })).code).toBe(0);
    const fromProfile = json(await runCliInProcess(['balance', '--json'], { configDir }));
    expect(fromProfile.trx).toBe(5_000_000);
    const fromEnv = json(await runCliInProcess(['balance', '--json'], { configDir, env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey } }));
    expect(fromEnv.trx).toBe(1_000_000_000);
    const keyFile = join(configDir, 'mock.key');
    writeFileSync(keyFile, mock.apiKey, { mode: 0o600 });
    const fromFlags = await runCliInProcess(['balance', '--json', '--base-url', mock.url, '--api-key-file', keyFile, '--verbose'], {
      configDir,
      env: { TRX_RENT_BASE_URL: other.url, TRX_RENT_API_KEY: other.apiKey },
    });
    expect(json(fromFlags).trx).toBe(1_000_000_000);
    expect(fromFlags.stderr).toContain('from --base-url');
    expect(fromFlags.stderr).toContain(`API key from --api-key-file ${keyFile}`);
  });

  it('--profile and TRX_RENT_PROFILE pick the profile; an unknown one is a usage error', async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--profile', 'a', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    await runCliInProcess(['login', '--profile', 'b', '--base-url', other.url], { configDir, env: { TRX_RENT_API_KEY: other.apiKey } });
    expect(json(await runCliInProcess(['balance', '--json'], { configDir })).trx).toBe(1_000_000_000); // a is current (first login)
    expect(json(await runCliInProcess(['balance', '--json', '--profile', 'b'], { configDir })).trx).toBe(5_000_000);
    expect(json(await runCliInProcess(['balance', '--json'], { configDir, env: { TRX_RENT_PROFILE: 'b' } })).trx).toBe(5_000_000);
    expect(json(await runCliInProcess(['balance', '--json', '--profile', 'a'], { configDir, env: { TRX_RENT_PROFILE: 'b' } })).trx).toBe(1_000_000_000);
    const missing = await runCliInProcess(['balance', '--json', '--profile', 'nope'], { configDir });
    expect(missing.code).toBe(2);
    expect(errorLine(missing).message).toContain('profile "nope" does not exist');
  });

  it('an API key in the environment overriding --profile (or TRX_RENT_PROFILE) prints a notice naming both', async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--profile', 'work', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    // A second account on the same mock: its key is the one left in the shell.
    const created = await fetch(`${mock.url}/__mock/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trx_sun: 7_000_000 }),
    });
    const leftover = ((await created.json()) as { api_key: string }).api_key;
    for (const how of [['--profile', 'work'], []]) {
      const env = { TRX_RENT_API_KEY: leftover, ...(how.length ? {} : { TRX_RENT_PROFILE: 'work' }) };
      const r = await runCliInProcess(['balance', '--json', ...how], { configDir, env });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r).trx).toBe(7_000_000); // flag > environment > profile: the environment's key was sent
      expect(r.stderr).toContain('using the API key from TRX_RENT_API_KEY, not the one saved in profile work');
      expect(r.stderr).toContain(how.length ? '(--profile)' : '(TRX_RENT_PROFILE)');
      expect(r.stderr).not.toContain(leftover);
    }
    // No notice when nothing was overridden: the same key, or no profile named.
    for (const [args, key] of [
      [['--profile', 'work'], mock.apiKey],
      [[], leftover],
    ] as const) {
      const quiet = await runCliInProcess(['balance', '--json', ...args], { configDir, env: { TRX_RENT_API_KEY: key } });
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toContain('using the API key');
    }
  });
});

describe('config and profiles', () => {
  it('config set / get / list / unset; api_key only as "(set)"; api_key cannot be set by argument', async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    expect((await runCliInProcess(['config', 'set', 'default_duration', '3h'], { configDir })).code).toBe(0);
    expect(json(await runCliInProcess(['config', 'get', 'default_duration', '--json'], { configDir }))).toMatchObject({ value: '3h' });
    expect((await runCliInProcess(['config', 'get', 'base_url', '--no-json'], { configDir })).stdout.trim()).toBe(mock.url);
    const key = await runCliInProcess(['config', 'get', 'api_key', '--json'], { configDir });
    expect(json(key).value).toBe('(set)');
    const list = await runCliInProcess(['config', 'list', '--json'], { configDir });
    expect(json(list).settings).toEqual({ base_url: mock.url, default_address: null, default_duration: '3h', tron_node: null, api_key: '(set)' });
    expect(list.stdout).not.toContain(mock.apiKey);
    const human = await runCliInProcess(['config', 'list', '--no-json'], { configDir });
    expect(human.stdout).toMatch(/api_key\s+\(set\)/);
    expect(human.stdout).not.toContain(mock.apiKey);

    const setKey = await runCliInProcess(['config', 'set', 'api_key', 'sk_live_abc'], { configDir });
    expect(setKey.code).toBe(2);
    expect(setKey.stderr).toContain('trx-rent login');
    expect((await runCliInProcess(['config', 'set', 'base_url', 'not a url'], { configDir })).code).toBe(2);
    expect((await runCliInProcess(['config', 'set', 'default_address', 'T123'], { configDir })).code).toBe(2);
    expect((await runCliInProcess(['config', 'set', 'colour', 'blue'], { configDir })).code).toBe(2);

    expect((await runCliInProcess(['config', 'unset', 'api_key'], { configDir })).code).toBe(0);
    expect((await runCliInProcess(['balance', '--json'], { configDir })).code).toBe(3);
    const file = json(list).config_path as string;
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("buy takes --to and --duration from the profile's default_address / default_duration", async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    expect((await runCliInProcess(['config', 'set', 'default_address', 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW'], { configDir })).code).toBe(0);
    expect((await runCliInProcess(['config', 'set', 'default_duration', '3h'], { configDir })).code).toBe(0);
    const r = await runCliInProcess(['buy', '65000', '--yes', '--dry-run', '--json'], { configDir });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).request).toMatchObject({ target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', duration_sec: 10_800 });
    const flagWins = await runCliInProcess(['buy', '65000', '--duration', '1h', '--yes', '--dry-run', '--json'], { configDir });
    expect(json(flagWins).request.duration_sec).toBe(3600);
  });

  it('profiles list / use / remove', async () => {
    const configDir = tempDir();
    expect(json(await runCliInProcess(['profiles', '--json'], { configDir }))).toEqual([]);
    await runCliInProcess(['login', '--profile', 'a', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    await runCliInProcess(['login', '--profile', 'b', '--base-url', other.url], { configDir, env: { TRX_RENT_API_KEY: other.apiKey } });
    const listed = json(await runCliInProcess(['profiles', '--json'], { configDir }));
    expect(listed.find((p: { current: boolean }) => p.current).name).toBe('a');
    expect(listed.map((p: { name: string }) => p.name).sort()).toEqual(['a', 'b']);
    expect(JSON.stringify(listed)).not.toContain(mock.apiKey);
    expect((await runCliInProcess(['profiles', 'use', 'b'], { configDir })).code).toBe(0);
    expect(json(await runCliInProcess(['balance', '--json'], { configDir })).trx).toBe(5_000_000);
    const table = await runCliInProcess(['profiles', 'list', '--no-json'], { configDir });
    expect(table.stdout).toMatch(/\*\s+b\s+http/);
    expect((await runCliInProcess(['profiles', 'use', 'zzz'], { configDir })).code).toBe(2);
    // removing asks first: without a terminal it needs --yes
    expect((await runCliInProcess(['profiles', 'remove', 'b'], { configDir })).code).toBe(2);
    expect((await runCliInProcess(['profiles', 'remove', 'b', '--yes'], { configDir })).code).toBe(0);
    const left = json(await runCliInProcess(['profiles', '--json'], { configDir }));
    expect(left.map((p: { name: string }) => p.name)).toEqual(['a']);
    expect(left.some((p: { current: boolean }) => p.current)).toBe(false);
  });
});
