import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { getPaidMock } from '../../src/mock/x402/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { evmAddressOfKey } from '../../src/x402/index.js';
import { runCliInProcess } from '../cli/run.js';
import { KEYS } from './helpers.js';

/**
 * `trx-rent x402 <command>` (the CLI, in-process) against the mock server on 127.0.0.1: the
 * wallet from a key file or the environment (never an argument), the price shown before paying,
 * --yes for scripts, --max-payment, refusals with exit codes.
 */
let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ rateLimits: false, seed: 9 });
});
afterAll(() => server.close());

const payments = () => getPaidMock(server.state).paywall.payments;

function run(args: string[], env: Record<string, string> = {}) {
  return runCliInProcess(args, { env: { TRX_RENT_BASE_URL: server.url, ...env }, timeoutMs: 30_000 });
}

const TRON_ENV = { TRX_RENT_X402_TRON_KEY: KEYS.tron };

describe('trx-rent x402', () => {
  test('prices --yes --json: paid from the environment wallet, prints { data, payment }', async () => {
    const before = payments().length;
    const r = await run(['x402', 'prices', 'energy', '--yes', '--json', '--scheme', 'exact_permit'], TRON_ENV);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { data: Array<{ provider: string }>; payment: { scheme: string; payer: string; amount_usd: string } };
    expect(out.data.length).toBeGreaterThan(0);
    expect(out.payment).toMatchObject({ scheme: 'exact_permit', payer: privateKeyToTronAddress(KEYS.tron), amount_usd: '0.01' });
    expect(payments().length).toBe(before + 1);
    expect(r.stdout + r.stderr).not.toContain(KEYS.tron);
  });

  test('the price is shown before paying (human mode)', async () => {
    const r = await run(['x402', 'network', '--summary', '--yes', '--no-json', '--scheme', 'exact_permit'], TRON_ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/GET \/x402\/tron\/network costs 0\.01 USD in USDT on TRON \(exact_permit\)/);
    expect(r.stdout).toMatch(/^block height\s+\d+$/m); // a readable summary, not JSON
    expect(r.stdout).toMatch(/paid 0\.01 USD in USDT/);
  });

  test('without --yes and without a terminal nothing is paid (exit 2)', async () => {
    const before = payments().length;
    const r = await run(['x402', 'prices', '--json'], TRON_ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/CONFIRMATION_REQUIRED|CANCELLED/);
    expect(payments().length).toBe(before);
  });

  test('--max-payment below the price is refused before signing (exit 2, with a hint)', async () => {
    const before = payments().length;
    const r = await run(['x402', 'prices', '--yes', '--json', '--max-payment', '0.005'], TRON_ENV);
    expect(r.code).toBe(2);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error as { code: string; hint: string };
    expect(error.code).toBe('PAYMENT_REFUSED');
    expect(error.hint).toMatch(/--max-payment/);
    expect(payments().length).toBe(before);
  });

  test('a key file (JSON, EVM) with --pay-with base pays USDC on Base', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-wallet-'));
    const file = join(dir, 'wallet.json');
    writeFileSync(file, JSON.stringify({ evm: KEYS.evm }));
    chmodSync(file, 0o600);
    const r = await run(['x402', 'account', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--key-file', file, '--pay-with', 'base', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { data: { address: string }; payment: { network_id: string; payer: string } };
    expect(out.data.address).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(out.payment).toMatchObject({ network_id: 'eip155:8453', payer: evmAddressOfKey(KEYS.evm) });
  });

  test('send signs the transfer locally with the wallet and pays for the broadcast', async () => {
    const paid = getPaidMock(server.state);
    const usdt = paid.chain.token('USDT')!;
    paid.chain.syntheticTransfer({ token: usdt, to: privateKeyToTronAddress(KEYS.tron), amount: 3_000_000n });
    paid.chain.fundTrx(privateKeyToTronAddress(KEYS.tron), 2_000_000n); // an account on chain: java-tron refuses a sender that is none
    const to = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const r = await run(['x402', 'send', '--to', to, '--amount', '1.25', '--full-node', server.url, '--scheme', 'exact_permit', '--yes', '--json'], TRON_ENV);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { data: { txid: string; status: string } };
    expect(out.data.status).toBe('confirmed');
    expect(paid.chain.tokenBalance(to, usdt.address)).toBe(1_250_000n);
  });

  test('the wallet from stdin (--key-file -); the key is never printed, its source is named in --verbose', async () => {
    const before = payments().length;
    const r = await runCliInProcess(['x402', 'prices', 'energy', '--key-file', '-', '--yes', '--json', '--verbose', '--scheme', 'exact_permit'], {
      env: { TRX_RENT_BASE_URL: server.url },
      input: `${KEYS.tron}\n`,
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(payments().length).toBe(before + 1);
    expect(r.stderr).toContain('x402 wallet from stdin (--key-file -)');
    expect(r.stdout + r.stderr).not.toContain(KEYS.tron);
    const garbage = await runCliInProcess(['x402', 'prices', '--key-file', '-', '--yes', '--json'], {
      env: { TRX_RENT_BASE_URL: server.url },
      input: 'not-a-key-123',
    });
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).not.toContain('not-a-key-123');
  });

  test('no wallet: a usage error that points at --key-file (keys are never arguments)', async () => {
    const r = await run(['x402', 'prices', '--yes', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--key-file/);
    const bare = await run(['x402', 'prices', '--key', KEYS.tron, '--yes', '--json'], TRON_ENV);
    expect(bare.code).toBe(2);
    expect(bare.stderr).not.toContain(KEYS.tron);
  });
});
