/**
 * `trx-rent tx sign FILE`: add one signature to a transaction kept in a file, for a transaction
 * that several people approve, each in their own time and place (a multi-signature account).
 * Offline: nothing is sent, no node is read. The txID does not change as signatures are added;
 * the permission the signatures are for (`--permission-id`) is part of the txID, so it can be set
 * only before the first signature. The key comes from --key-file, TRX_RENT_PRIVATE_KEY or a
 * hidden prompt, or stays in AWS KMS (`--kms-key-id`).
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseInteger } from '../../parse.js';
import { ENV } from '../../settings.js';
import { signingKey } from '../../signing-key.js';
import { readTxFile, writeTxFile } from './file.js';

interface SignOptions {
  keyFile?: string;
  kmsKeyId?: string;
  permissionId?: string;
  out?: string;
}

/** Add `tx sign` to `cmd`. */
export function registerTxSign(cmd: Command): void {
  cmd
    .command('sign')
    .description('add a signature to the transaction in FILE (written back, or to --out); offline')
    .argument('<file>', 'the transaction JSON (as tronweb builds it; unsigned or partly signed)')
    .option('--key-file <path>', `file holding the signer's hex private key (- for stdin; or env ${ENV.privateKey}; else asked, hidden)`)
    .option(
      '--kms-key-id <id>',
      'sign with this AWS KMS key (ECC_SECG_P256K1) instead; region and credentials from the AWS environment (needs @aws-sdk/client-kms)',
    )
    .option(
      '--permission-id <n>',
      'the account permission the signatures are for: 0 owner, 2.. an active permission (only before the first signature: it changes the txID)',
    )
    .option('--out <path>', 'write the signed transaction here instead of back to FILE')
    .action(action<[string], SignOptions>(runTxSign));
}

async function runTxSign(ctx: Context, { args: [file], opts }: { args: [string]; opts: SignOptions }) {
  const [{ permissionIdOf, signTransactionWith, withPermissionId }, { fromPrivateKey }] = await Promise.all([
    import('../../../protocol/signer.js'),
    import('../../../protocol/signers/local.js'),
  ]);
  let tx = await readTxFile(file);
  const named = permissionIdOf(tx);
  const wanted = opts.permissionId === undefined ? named : parseInteger(opts.permissionId, '--permission-id');
  if (wanted !== named) {
    if ((tx.signature?.length ?? 0) > 0) {
      throw new UsageError(`${file} is signed for permission ${named}`, 'the permission is part of the txID: it can change only before the first signature');
    }
    try {
      tx = withPermissionId(tx, wanted);
    } catch (error) {
      throw new UsageError(`--permission-id: ${(error as Error).message}`);
    }
  }
  if (opts.kmsKeyId && opts.keyFile) throw new UsageError('pass --key-file or --kms-key-id, not both');
  const signer = opts.kmsKeyId
    ? await (await import('../../../protocol/signers/kms.js')).fromAwsKms({ keyId: opts.kmsKeyId, permissionId: wanted })
    : fromPrivateKey(await signingKey(ctx, opts.keyFile, "Signer's private key"), { permissionId: wanted });
  const signed = await signTransactionWith(signer, tx).catch((error: unknown) => {
    if (error instanceof TypeError) throw new UsageError(`${file}: ${error.message}`, undefined, 'VALIDATION_ERROR');
    throw error;
  });
  const target = opts.out ?? file;
  await writeTxFile(target, signed);
  const out = { tx_id: signed.txID, signer: signer.address, permission_id: wanted, signatures: signed.signature.length, file: target };
  ctx.out.result(
    out,
    () =>
      `${ctx.out.s.green('✓')} Signed ${signed.txID} as ${signer.address} (permission ${wanted}); ${signed.signature.length} signature${signed.signature.length === 1 ? '' : 's'} in ${target}.\n  Next: trx-rent tx approvals ${target}\n`,
  );
}
