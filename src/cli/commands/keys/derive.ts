/**
 * `trx-rent keys derive`: TRON deposit addresses of an HD wallet, from a BIP-39 mnemonic file (or
 * a BIP-32 seed file) along m/44'/195'/account'/0/index, as tronweb's `fromMnemonic` derives them
 * (`client.chain.deriveAddresses`). Prints index, path and address; local only (no API, no node).
 * The words come from a file or stdin, never from an argument (it would sit in shell history and
 * in the process list), and appear in no output, error or log; no private key is printed.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { outputSchema, renderTable } from '../../output.js';
import { parseInteger } from '../../parse.js';
import { readSecretFile } from '../../settings.js';

/** Add `keys derive` to `cmd`. */
export function registerKeysDerive(cmd: Command): void {
  cmd
    .command('derive')
    .description("TRON deposit addresses of an HD wallet (m/44'/195'/account'/0/index) from a mnemonic file; never prints the words or a key")
    .option('--count <n>', 'how many consecutive indexes')
    .option('--from <index>', 'first index', '0')
    .option('--account <n>', "the account of m/44'/195'/account'/0/index", '0')
    .option('--mnemonic-file <path>', 'BIP-39 words (English) in a file; "-" for stdin')
    .option('--seed-file <path>', 'or a BIP-32 seed (hex) in a file; "-" for stdin')
    .option('--passphrase-file <path>', 'the BIP-39 passphrase, if the wallet has one')
    .addHelpText(
      'after',
      '\nThe words are read from the file (chmod 600) or stdin (`--mnemonic-file -`), never from an\n' +
        'argument. The output is index, path and address; the SDK gives the keys (`client.chain.deriveKeys`).',
    )
    .action(action<[], KeysDeriveOptions>(runKeysDerive));
}

interface KeysDeriveOptions {
  count?: string;
  from: string;
  account: string;
  mnemonicFile?: string;
  seedFile?: string;
  passphraseFile?: string;
}

/** A secret from a file named by `flag`, or stdin for "-"; never echoed. */
async function secretOf(ctx: Context, path: string, flag: string): Promise<string> {
  if (path !== '-') return readSecretFile(path, flag, (m) => ctx.out.warn(m)).value;
  const value = (await ctx.readStdin()).trim();
  if (!value) throw new UsageError(`nothing on stdin (${flag} -)`);
  return value;
}

async function runKeysDerive(ctx: Context, { opts }: { opts: KeysDeriveOptions }) {
  // @scure/bip32 and @scure/bip39 load here, not with `keys create`.
  const { MAX_DERIVE_COUNT, deriveAddresses } = await import('../../../protocol/hd-keys.js');
  if (opts.count === undefined) throw new UsageError('--count is required', 'e.g. --count 10 (up to 100000 a run; --from moves the range)', 'MISSING_ARGUMENT');
  const count = parseInteger(opts.count, '--count', { min: 1, max: MAX_DERIVE_COUNT });
  const from = parseInteger(opts.from, '--from', { max: 2 ** 31 - 1 });
  const account = parseInteger(opts.account, '--account', { max: 2 ** 31 - 1 });
  if (Boolean(opts.mnemonicFile) === Boolean(opts.seedFile)) {
    throw new UsageError(
      opts.mnemonicFile ? 'give --mnemonic-file or --seed-file, not both' : 'no wallet to derive from',
      'pass --mnemonic-file FILE (or - for stdin); the words are never taken from the command line',
      'MISSING_ARGUMENT',
    );
  }
  if (opts.mnemonicFile === '-' && opts.passphraseFile === '-')
    throw new UsageError('stdin can carry the words or the passphrase, not both', 'pass --passphrase-file FILE');
  const passphrase = opts.passphraseFile ? await secretOf(ctx, opts.passphraseFile, '--passphrase-file') : undefined;
  if (passphrase !== undefined && opts.seedFile) throw new UsageError('--passphrase-file applies to a mnemonic, not to a seed');
  const source = opts.mnemonicFile
    ? { mnemonic: await secretOf(ctx, opts.mnemonicFile, '--mnemonic-file'), passphrase }
    : { seed: await secretOf(ctx, opts.seedFile!, '--seed-file') };
  const rows = await deriveAddresses({ ...source, account, from, count });
  ctx.out.result(
    rows,
    () =>
      renderTable(
        [
          { header: 'INDEX', truncate: 'none' },
          { header: 'PATH', truncate: 'none' },
          { header: 'ADDRESS', truncate: 'none' },
        ],
        rows.map((r) => [String(r.index), r.path, r.address]),
        ctx.out.s,
      ),
    outputSchema(['index', 'path', 'address']),
  );
}
