/**
 * `trx-rent keys derive` (src/cli/commands/keys/derive.ts): the addresses the SDK derives (and
 * tronweb, test/protocol/hd-keys.test.ts), read from a mnemonic file or stdin; the words never
 * appear in the output or an error, and are refused as a flag value.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveAddresses } from '../../../../src/protocol/hd-keys.js';
import { errorLine, json, runCliInProcess, tempDir } from '../../run.js';

const WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const dir = tempDir('trx-rent-derive-');
const wordsFile = join(dir, 'words.txt');
writeFileSync(wordsFile, `${WORDS}\n`);
chmodSync(wordsFile, 0o600);
/** Nothing the run printed holds a word of the mnemonic. */
const noWords = (r: { stdout: string; stderr: string }) => expect(`${r.stdout}${r.stderr}`).not.toMatch(/abandon|about/);

describe('keys derive', () => {
  it("--count --from --account --json: index, path and address of each index, the SDK's (no API, no key printed)", async () => {
    const r = await runCliInProcess(['keys', 'derive', '--count', '3', '--from', '5', '--account', '1', '--mnemonic-file', wordsFile, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = json<Array<Record<string, unknown>>>(r);
    expect(rows).toEqual(await deriveAddresses({ mnemonic: WORDS, account: 1, from: 5, count: 3 }));
    expect(rows.map((row) => Object.keys(row))).toEqual(Array(3).fill(['index', 'path', 'address']));
    expect(rows[0]).toMatchObject({ index: 5, path: "m/44'/195'/1'/0/5" });
    noWords(r);
    expect(r.stderr).toBe('');
  });

  it('prints a table at a terminal, and reads the words from stdin with --mnemonic-file -', async () => {
    const r = await runCliInProcess(['keys', 'derive', '--count', '2', '--mnemonic-file', '-'], {
      input: WORDS,
      isTTY: { stdout: true },
      columns: 120,
      env: { NO_COLOR: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/INDEX\s+PATH\s+ADDRESS/);
    expect(r.stdout).toContain("m/44'/195'/0'/0/1");
    expect(r.stdout).toContain('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'); // index 0: tronweb's fromMnemonic
    noWords(r);
  });

  it('an invalid mnemonic is VALIDATION_ERROR naming the mnemonic, without its words', async () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, WORDS.replace('about', 'abandon'));
    chmodSync(bad, 0o600);
    const r = await runCliInProcess(['keys', 'derive', '--count', '1', '--mnemonic-file', bad, '--json']);
    expect(r.code).not.toBe(0);
    const error = errorLine(r);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/mnemonic/);
    noWords(r);
  });

  it('refuses the words as a flag value, a run with no wallet, and a bad --count', async () => {
    const asFlag = await runCliInProcess(['keys', 'derive', '--count', '1', `--mnemonic=${WORDS}`, '--json']);
    expect(errorLine(asFlag)).toMatchObject({ code: 'USAGE_ERROR', hint: expect.stringMatching(/--mnemonic-file FILE/) });
    noWords(asFlag);
    const none = await runCliInProcess(['keys', 'derive', '--count', '1', '--json']);
    expect(errorLine(none)).toMatchObject({ code: 'MISSING_ARGUMENT', hint: expect.stringMatching(/--mnemonic-file/) });
    const count = await runCliInProcess(['keys', 'derive', '--count', '0', '--mnemonic-file', wordsFile, '--json']);
    expect(errorLine(count).message).toMatch(/--count/);
    expect((await runCliInProcess(['keys', 'derive', '--mnemonic-file', wordsFile, '--json'])).code).toBe(2);
  });
});
