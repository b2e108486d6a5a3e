import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The payout workflow costs nothing until used: `import 'trx-rent'` and a client with
 * `client.transfers` load none of it; `client.transfers.batch(…)` loads it. (The built package,
 * as users import it; the workflow's modules are told apart by a string only they hold.)
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const MARK = 'JOURNAL_MISMATCH';

function loadedWithMark(body: string): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'trx-rent-imports-')), 'imports.log');
  const hooks = new URL('../helpers/record-imports.mjs', import.meta.url).href;
  const code = `import { register } from 'node:module'; register(${JSON.stringify(hooks)}); const { TrxRent } = await import('trx-rent'); const client = new TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', tronNode: 'http://127.0.0.1:9', maxRetries: 0 }); ${body}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, TRX_RENT_IMPORT_LOG: log } });
  const urls = readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:') && u.includes('/dist/'));
  return urls.filter((u) => readFileSync(fileURLToPath(u), 'utf8').includes(MARK));
}

describe('payouts load on first use', () => {
  it('the core and client.transfers load no payout code; transfers.batch loads it', () => {
    expect(loadedWithMark('void client.transfers.sendMany;')).toEqual([]);
    expect(
      loadedWithMark(`await client.transfers.batch([{ to: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', amount: '1' }], { signer: { privateKey: '11'.repeat(32) } });`)
        .length,
    ).toBeGreaterThan(0);
  });
});
