import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `import 'trx-rent'` (the built package, both module systems) must not load tronweb, viem,
 * the x402 packages, the @inquirer prompts, the MCP SDK or HD derivation (@scure/bip32): they are
 * heavy and only some users need them.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const HEAVY =
  /node_modules[\\/](tronweb|viem|ox|ethers|x402|x402-fetch|@x402|@inquirer|msw|@noble[\\/]curves|@scure[\\/]bip32|@modelcontextprotocol|@aws-sdk)[\\/]/;
/** zod's classic API (`zod`, `zod/v4`): the core's schemas are zod/mini, whose unused parts a bundler drops. */
const ZOD_CLASSIC = /node_modules[\\/]zod[\\/](index\.c?js|v4[\\/]index\.c?js|v4[\\/]classic[\\/])/;
/** The MCP server's SDK (an optional peer, loaded by `trx-rent mcp` only). */
const MCP = /node_modules[\\/]@modelcontextprotocol[\\/]/;

/** The modules `import(entry)` loads (then `use(module)`, when given: code run on the entry's exports as `m`). */
function esmImports(entry: string, use = ''): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'trx-rent-imports-')), 'imports.log');
  const hooks = new URL('../helpers/record-imports.mjs', import.meta.url).href;
  const code = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}); const m = await import(${JSON.stringify(entry)}); ${use}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, TRX_RENT_IMPORT_LOG: log } });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

function cjsModules(entry: string): string[] {
  const out = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(require.cache)))`], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

describe('light core', () => {
  it("import 'trx-rent' (ESM) loads zod but nothing heavy", () => {
    const urls = esmImports('trx-rent');
    expect(urls.some((u) => u.includes('/dist/index.js'))).toBe(true);
    expect(urls.some((u) => /node_modules\/zod\//.test(u))).toBe(true); // proves the recorder sees packages
    expect(urls.filter((u) => HEAVY.test(u))).toEqual([]);
    expect(urls.filter((u) => MCP.test(u))).toEqual([]);
  });

  it("import/require 'trx-rent' load zod/mini, not zod's classic API", () => {
    const urls = esmImports('trx-rent');
    expect(urls.some((u) => /node_modules\/zod\/v4\/mini\//.test(u))).toBe(true);
    expect(urls.filter((u) => ZOD_CLASSIC.test(u))).toEqual([]);
    const modules = cjsModules('trx-rent');
    expect(modules.some((m) => /node_modules[\\/]zod[\\/]v4[\\/]mini[\\/]/.test(m))).toBe(true);
    expect(modules.filter((m) => ZOD_CLASSIC.test(m))).toEqual([]);
    // The check is live: the x402 client's schemas are classic.
    expect(esmImports('trx-rent/x402').filter((u) => ZOD_CLASSIC.test(u)).length).toBeGreaterThan(0);
  });

  it('HD derivation (@scure/bip32) loads on the first client.chain.deriveAddresses, not with the core', () => {
    const BIP32 = /node_modules[\\/]@scure[\\/]bip32[\\/]/;
    expect(esmImports('trx-rent').filter((u) => BIP32.test(u))).toEqual([]);
    const words = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const used = esmImports('trx-rent', `await new m.TrxRent({ baseUrl: 'http://127.0.0.1:9' }).chain.deriveAddresses({ mnemonic: '${words}', count: 1 });`);
    expect(used.filter((u) => BIP32.test(u)).length).toBeGreaterThan(0);
  });

  it("require('trx-rent') (CJS) loads nothing heavy", () => {
    const modules = cjsModules('trx-rent');
    expect(modules.some((m) => m.endsWith(join('dist', 'index.cjs')))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
    expect(modules.filter((m) => MCP.test(m))).toEqual([]);
  });

  it("'trx-rent/x402' and 'trx-rent/mock' load no MCP code either (the peer loader only names it)", () => {
    for (const entry of ['trx-rent/x402', 'trx-rent/mock']) {
      expect(
        esmImports(entry).filter((u) => MCP.test(u)),
        entry,
      ).toEqual([]);
      expect(
        cjsModules(entry).filter((m) => MCP.test(m)),
        entry,
      ).toEqual([]);
    }
  });

  it("'trx-rent/signers' loads secp256k1 but not the AWS SDK, tronweb or viem (the KMS client loads when a KMS signer is made)", () => {
    const AWS = /node_modules[\\/]@aws-sdk[\\/]/;
    const urls = esmImports('trx-rent/signers');
    expect(urls.some((u) => /node_modules\/@noble\/curves\//.test(u))).toBe(true);
    expect(urls.filter((u) => AWS.test(u) || /node_modules\/(tronweb|viem)\//.test(u))).toEqual([]);
    expect(cjsModules('trx-rent/signers').filter((m) => AWS.test(m))).toEqual([]);
  });

  it("'trx-rent/webhooks' loads no package at all", () => {
    const urls = esmImports('trx-rent/webhooks');
    expect(urls.filter((u) => u.includes('node_modules'))).toEqual([]);
    expect(cjsModules('trx-rent/webhooks').filter((m) => m.includes('node_modules'))).toEqual([]);
  });

  it("'trx-rent/schemas' imports and requires", () => {
    expect(esmImports('trx-rent/schemas').some((u) => u.includes('/dist/schemas/index.js'))).toBe(true);
    expect(cjsModules('trx-rent/schemas').some((m) => m.endsWith(join('dist', 'schemas', 'index.cjs')))).toBe(true);
  });
});
