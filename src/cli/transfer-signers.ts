/**
 * Who signs `send` (one transfer or a `--batch`): one key (`--key-file FILE`, else
 * TRX_RENT_PRIVATE_KEY, else a hidden prompt; the sender is its address), or the keys of a
 * multi-signature account's permission, all in this process: `--from ACCOUNT --key-file A
 * --key-file B --permission-id 2`. Each key is read as `signingKey` reads one (never from the
 * command line, never echoed); the SDK checks the signers against the account on the chain
 * before anything is rented (PERMISSION_DENIED).
 * @module
 */
import type { Command } from 'commander';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { parseAddress, parseInteger } from './parse.js';
import { ENV } from './settings.js';
import { signingKey } from './signing-key.js';

/** The signing options as commander gives them. */
export interface SignerFlags {
  /** Every --key-file given, in order. */
  keyFile?: string[] | undefined;
  from?: string | undefined;
  permissionId?: string | undefined;
}

/** What `transfers.send` and payouts take: one signer, or an account's permission and its signers. */
export type SignerChoice = { signer: { privateKey: string } } | { from: string; signers: Array<{ privateKey: string }>; permissionId: number };

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** Register --key-file (repeatable), --from and --permission-id on `cmd`. */
export function registerSignerOptions(cmd: Command): Command {
  return cmd
    .option(
      '--key-file <path>',
      `file holding the sender's hex private key (- for stdin; or env ${ENV.privateKey}; else asked, hidden); repeat it for each signer of a multi-signature account (with --from)`,
      collect,
    )
    .option('--from <address>', 'the multi-signature account to send from, when the --key-file keys are signers of its permission (not the account itself)')
    .option('--permission-id <n>', 'the account permission the keys sign under: 0 owner, 2.. an active permission (default 0; see `trx-rent tx approvals`)');
}

/** Whether the flags name a multi-signature account (several keys, --from or --permission-id). */
export function isMultiSig(flags: SignerFlags): boolean {
  return (flags.keyFile?.length ?? 0) > 1 || flags.from !== undefined || flags.permissionId !== undefined;
}

/** The keys and account the flags name, read (files, stdin, the environment or the prompt). */
export async function transferSignerChoice(ctx: Context, flags: SignerFlags, label = "Sender's private key"): Promise<SignerChoice> {
  const files = flags.keyFile ?? [];
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('--key-file - (stdin) is given twice', 'give each signer its own file');
  if (new Set(files).size !== files.length) throw new UsageError('a --key-file is given twice', 'each signer signs once: give each key once');
  if (!isMultiSig(flags)) return { signer: { privateKey: await signingKey(ctx, files[0], label) } };
  if (flags.from === undefined && files.length > 1)
    throw new UsageError(
      'several --key-file keys need --from ACCOUNT',
      'name the multi-signature account they sign for (and --permission-id N)',
      'MISSING_ARGUMENT',
    );
  const given = flags.from === undefined ? undefined : await parseAddress(flags.from, '--from');
  const permissionId = flags.permissionId === undefined ? 0 : parseInteger(flags.permissionId, '--permission-id', { min: 0, max: 9 });
  if (permissionId === 1)
    throw new UsageError('--permission-id 1 is the witness permission: it signs blocks, not transfers', 'use 0 (owner) or 2.. (an active permission)');
  const keys: string[] = [];
  if (files.length === 0) keys.push(await signingKey(ctx, undefined, given ? `${label} (a signer of ${given})` : label));
  for (const file of files) keys.push(await signingKey(ctx, file, label));
  // One key and no --from: its own account, under --permission-id.
  const from = given ?? (await import('../protocol/tron-transaction.js')).privateKeyToTronAddress(keys[0]!);
  return { from, signers: keys.map((privateKey) => ({ privateKey })), permissionId };
}

/** The flags again, for the command a user runs to resume (paths only: keys never appear). */
export function signerArgs(flags: SignerFlags, quote: (s: string) => string): string[] {
  return [
    ...(flags.keyFile ?? []).flatMap((f) => ['--key-file', quote(f)]),
    ...(flags.from !== undefined ? ['--from', quote(flags.from)] : []),
    ...(flags.permissionId !== undefined ? ['--permission-id', quote(flags.permissionId)] : []),
  ];
}

/** The account a choice sends from. */
export async function senderOf(choice: SignerChoice): Promise<string> {
  if ('from' in choice) return choice.from;
  return (await import('../protocol/tron-transaction.js')).privateKeyToTronAddress(choice.signer.privateKey);
}
