import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `client.transfers` and `client.resources` cost nothing until used: a client with `tronNode`
 * loads no signing code (@noble/curves); reading an address's resources on the node loads the
 * node client and the engine, still without it. Only building a transfer loads secp256k1.
 * (The built package, as users import it.)
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const CURVES = /node_modules[\\/]@noble[\\/]curves[\\/]/;

function esmImports(body: string): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'trx-rent-imports-')), 'imports.log');
  const hooks = new URL('../helpers/record-imports.mjs', import.meta.url).href;
  const code = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}); const { TrxRent } = await import('trx-rent'); ${body}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, TRX_RENT_IMPORT_LOG: log } });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const CLIENT = `const client = new TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', tronNode: 'http://127.0.0.1:9', maxRetries: 0 });`;

describe('transfers load on first use', () => {
  it('a client with tronNode, and a read on the node, load no secp256k1', () => {
    const constructed = esmImports(`${CLIENT} void client.transfers; void client.resources;`);
    expect(constructed.some((u) => /node_modules\/zod\//.test(u))).toBe(true); // the recorder sees packages
    expect(constructed.filter((u) => CURVES.test(u))).toEqual([]);
    const read = esmImports(
      `${CLIENT} const e = await client.resources.read('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').catch((e) => e); if (e.code !== 'CONNECTION_ERROR') throw e;`,
    );
    expect(read.length).toBeGreaterThan(constructed.length); // the engine and the node client loaded
    expect(read.filter((u) => CURVES.test(u))).toEqual([]);
  });
});
