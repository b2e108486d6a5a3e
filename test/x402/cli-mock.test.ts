/**
 * `trx-rent --mock x402 …` as a real process with no terminal (stdin empty, stdout a pipe): a
 * throwaway wallet pays the embedded mock, with no prompt and no --yes (the mock's money is
 * pretend), as `mcp --mock` does. And the optional packages of paying: when several are missing,
 * one error names them all with one install command. Needs the build (dist/).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { PEER_VERSIONS } from '../../src/peers/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'trx-rent.js');

function cli(args: string[], nodeArgs: string[] = []) {
  return spawnSync(process.execPath, [...nodeArgs, bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    input: '',
    env: { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'trx-rent-x402-mock-')) },
  });
}

/** Node's module hooks that make `packages` look not installed. */
function hiding(packages: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-hide-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `const HIDDEN = ${JSON.stringify(packages)};
    export async function resolve(specifier, context, next) {
      const name = HIDDEN.find((p) => specifier === p || specifier.startsWith(p + '/'));
      if (name) {
        const error = new Error("Cannot find package '" + name + "' imported from " + context.parentURL);
        error.code = 'ERR_MODULE_NOT_FOUND';
        throw error;
      }
      return next(specifier, context);
    }`,
  );
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`);
  return ['--import', pathToFileURL(join(dir, 'register.mjs')).href];
}

const errorOf = (stderr: string) => (JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string; hint?: string } }).error;

describe('--mock x402', () => {
  test('x402 prices pays with a throwaway wallet and prints, with no terminal, no prompt and no --yes', () => {
    const r = cli(['--mock', 'x402', 'prices']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      data: Array<{ provider: string; price_sun: number }>;
      payment: { amount_usd: string; payer: string; network: string; transaction: string };
    };
    expect(out.data.length).toBeGreaterThan(0);
    expect(out.data[0]).toMatchObject({ provider: expect.any(String), price_sun: expect.any(Number) });
    expect(out.payment).toMatchObject({ amount_usd: '0.01', network: expect.stringMatching(/^tron:/) });
    expect(out.payment.payer).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(r.stderr).not.toMatch(/private key|prompt|--yes/i);
  });

  test('--pay-with base gets a throwaway EVM wallet', () => {
    const r = cli(['--mock', 'x402', 'network', '--summary', '--pay-with', 'base']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { payment: { network: string; payer: string } };
    expect(out.payment.network).toBe('eip155:8453');
    expect(out.payment.payer).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe('missing optional packages are named together', () => {
  test('none of the three payment packages: one error, one npm install naming all three', () => {
    const r = cli(['--mock', 'x402', 'prices'], hiding(['viem', '@x402/core', '@x402/evm']));
    expect(r.status).not.toBe(0);
    const error = errorOf(r.stderr);
    expect(error.code).toBe('MISSING_PEER_DEPENDENCY');
    const install = /npm install (.+)$/.exec(error.message)?.[1]?.split(' ').sort();
    expect(install).toEqual([`@x402/core@${PEER_VERSIONS['@x402/core']}`, `@x402/evm@${PEER_VERSIONS['@x402/evm']}`, `viem@${PEER_VERSIONS.viem}`]);
    expect(r.stdout).toBe('');
  });

  test('only @x402/evm missing: TRON still pays; paying on Base names just that one', () => {
    expect(cli(['--mock', 'x402', 'prices'], hiding(['@x402/evm'])).status).toBe(0);
    const r = cli(['--mock', 'x402', 'prices', '--pay-with', 'base'], hiding(['@x402/evm']));
    expect(r.status).not.toBe(0);
    const error = errorOf(r.stderr);
    expect(error.code).toBe('MISSING_PEER_DEPENDENCY');
    expect(error.message).toMatch(new RegExp(`npm install @x402/evm@${PEER_VERSIONS['@x402/evm'].replace(/\./g, '\\.')}$`));
  });
});
