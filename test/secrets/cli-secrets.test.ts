import { statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { signWebhookPayload } from '../../src/webhooks/index.js';
import { ADDRESS, runCliInProcess, tempDir, type RunResult } from '../cli/run.js';

/**
 * Secret hygiene of the CLI (run in-process): every run with --verbose, through success, failure and retry
 * paths, and every byte it prints (stdout and stderr) is scanned for the API key, the JWT, a
 * webhook secret, private keys, an HD wallet's words and the keys derived from them. The one deliberate exception is `webhooks create`, whose
 * result *is* the new secret (the API returns it once); its stderr is still scanned.
 */
const TRON_KEY = '5a'.repeat(32);
const EVM_KEY = `0x${'6b'.repeat(32)}`;
let mock: MockServer;
let chaotic: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ seed: 3, rateLimits: false, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  chaotic = await startMockServer({ seed: 4, rateLimits: false, chaos: { rate: 0.5, kinds: [500, 503, 'drop'] } });
});
afterAll(async () => {
  await mock.close();
  await chaotic.close();
});

describe('the CLI never prints a secret', () => {
  it('through success, failure and retry paths with --verbose; the config file is 0600', async () => {
    const configDir = tempDir();
    const env = { TRX_RENT_BASE_URL: mock.url };
    const withKey = { ...env, TRX_RENT_API_KEY: mock.apiKey };
    const runs: Array<[string, RunResult]> = [];
    const run = async (label: string, args: string[], options: Parameters<typeof runCliInProcess>[1] = {}) => {
      const r = await runCliInProcess([...args, '--verbose'], { configDir, ...options });
      runs.push([label, r]);
      return r;
    };

    // login saves the key (from stdin, never an argument) and checks it with a real call
    const login = await run('login', ['login', '--with-token', '--json'], { env, input: `${mock.apiKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    const configFile = join(configDir, 'config.json');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(configFile, 'utf8')).toContain(mock.apiKey); // saved where it belongs, only there

    expect((await run('prices', ['prices', '--json'], { env })).code).toBe(0);
    expect((await run('balance', ['balance', '--json'], { env })).code).toBe(0);
    const buy = await run('buy', ['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env });
    expect(buy.code, buy.stderr).toBe(0);
    expect((await run('wrong key', ['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: `sk_live_${'0e'.repeat(32)}` } })).code).toBe(3);
    expect((await run('not found', ['orders', 'get', '00000000-0000-4000-8000-000000000000', '--json'], { env: withKey })).code).toBe(4);
    const retried = await run('retries', ['balance', '--json'], { env: { TRX_RENT_BASE_URL: chaotic.url, TRX_RENT_API_KEY: chaotic.apiKey } });
    expect(retried.stderr).toMatch(/retry|retrying/i);

    // webhooks: create returns the secret once (its stdout is the secret's one legitimate place)
    const created = await run('webhooks create', ['webhooks', 'create', '--url', 'https://example.com/hook', '--events', 'order.filled', '--json'], {
      env: withKey,
    });
    expect(created.code, created.stderr).toBe(0);
    const secret = JSON.parse(created.stdout).secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const secretFile = join(configDir, 'secret.txt');
    writeFileSync(secretFile, secret);
    const body = JSON.stringify({ event: 'order.filled', data: { id: 'x' }, timestamp: Math.floor(Date.now() / 1000) });
    const signature = await signWebhookPayload(body, secret);
    expect((await run('verify ok', ['webhooks', 'verify', '--secret-file', secretFile, '--signature', signature, '--json'], { input: body })).code).toBe(0);
    expect(
      (await run('verify bad', ['webhooks', 'verify', '--secret-file', secretFile, '--signature', `sha256=${'0'.repeat(64)}`, '--json'], { input: body })).code,
    ).toBe(1);

    // x402 with private keys from the environment: a payment, and a refusal
    const wallets = { TRX_RENT_X402_TRON_KEY: TRON_KEY, TRX_RENT_X402_EVM_KEY: EVM_KEY, TRX_RENT_BASE_URL: mock.url };
    const paid = await run('x402 paid', ['x402', 'prices', '--yes', '--json', '--scheme', 'exact_permit'], { env: wallets });
    expect(paid.code, paid.stderr).toBe(0);
    expect((await run('x402 refused', ['x402', 'prices', '--yes', '--json', '--max-payment', '0.001'], { env: wallets })).code).not.toBe(0);

    // HD deposit addresses: the words from a file and from stdin, a bad mnemonic, the words as a flag
    const words = `${'zoo '.repeat(23)}vote`;
    const wordsFile = join(configDir, 'words.txt');
    writeFileSync(wordsFile, words, { mode: 0o600 });
    expect((await run('keys derive', ['keys', 'derive', '--count', '3', '--mnemonic-file', wordsFile, '--json'])).code).toBe(0);
    expect((await run('keys derive stdin', ['keys', 'derive', '--count', '3', '--mnemonic-file', '-'], { input: words })).code).toBe(0);
    writeFileSync(wordsFile, words.replace('vote', 'zoo'), { mode: 0o600 });
    expect((await run('keys derive bad', ['keys', 'derive', '--count', '1', '--mnemonic-file', wordsFile, '--json'])).code).not.toBe(0);
    expect((await run('keys derive flag', ['keys', 'derive', '--count', '1', `--mnemonic=${words}`, '--json'])).code).toBe(2);
    const { deriveKeys } = await import('../../src/protocol/hd-keys.js');
    const derivedKeys = Object.fromEntries((await deriveKeys({ mnemonic: words, count: 3 })).map((k) => [`derived key ${k.index}`, k.privateKey]));

    const secrets: Record<string, string> = {
      mnemonic: 'zoo zoo',
      ...derivedKeys,
      apiKey: mock.apiKey,
      chaoticKey: chaotic.apiKey,
      wrongKey: `sk_live_${'0e'.repeat(32)}`,
      jwt: mock.jwt,
      webhookSecret: secret,
      tronPrivateKey: TRON_KEY,
      evmPrivateKey: EVM_KEY.slice(2),
    };
    expect(runs.length).toBeGreaterThan(10);
    for (const [label, r] of runs) {
      const printed = label === 'webhooks create' ? r.stderr : r.stdout + r.stderr;
      for (const [name, value] of Object.entries(secrets)) {
        expect(printed.toLowerCase().includes(value.toLowerCase()), `${name} printed by '${label}'`).toBe(false);
      }
    }
    // there was verbose output to scan, not silence
    expect(runs.filter(([, r]) => /GET \/api\/v1\//.test(r.stderr)).length).toBeGreaterThan(3);
  }, 120_000);
});
