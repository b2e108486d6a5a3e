/**
 * Signing in the one transfer protocol (`transfer.ts`): who signs a transfer (one key or TronWeb
 * instance whose address is the sender, or an account's permission and the keys of it that sign,
 * all in this process) and the check that what was signed is exactly the transfer built: the
 * sender's signature, or distinct keys of the named permission whose weights reach its
 * threshold, every one over the same txID.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { TransferRecord } from './identity.js';
import type { SendTronWeb } from './types.js';

type TxModule = typeof import('../protocol/tron-transaction.js');
/** What the signed transfer must move: to whom, how much. */
type Intent = { to: string; amount_atomic: string };

/**
 * An account's permission and the keys of it that sign, all in this process: a multi-signature
 * account (`from`) whose active permission `permissionId` needs, say, two of three keys. Every
 * signer signs the same txID (the permission id is in the raw data from the start); made by
 * `account-signers.ts`, which checks `permission` on the chain before anything is rented.
 */
export interface PermissionSigners {
  /** The account the transfer is from (base58); not necessarily any signer's address. */
  from: string;
  /** 0 the owner permission, 2 and up an active one. */
  permissionId: number;
  /** The keys that sign, each once, in this order. */
  signers: readonly import('../protocol/signer.js').Signer[];
  /** The permission as the account holds it on chain: every signature must recover to one of its keys, their weights reaching its threshold. */
  permission: import('../protocol/tron-permissions.js').Permission;
  privateKey?: undefined;
  tronWeb?: undefined;
}

/** Who signs a transfer: one key or TronWeb instance whose address is the sender, or an account's permission and its signers. */
export type TransferWho = import('../protocol/signer.js').ResolvedSigner<SendTronWeb> | PermissionSigners;

/** Whether `who` signs under an account's permission (several keys, or a key that is not the sender's). */
export function isPermissionSigners(who: TransferWho): who is PermissionSigners {
  return Array.isArray((who as PermissionSigners).signers);
}

/**
 * The TRX a transfer signed by `who` burns for its signatures, whatever its energy: the chain's
 * getMultiSignFee (`params`, from getchainparameters) when it carries more than one signature
 * (java-tron `Manager.consumeMultiSignFee`), else 0.
 */
export function multiSignFeeSun(who: TransferWho, params: ReadonlyMap<string, number>): number {
  return isPermissionSigners(who) && who.signers.length > 1 ? (params.get('getMultiSignFee') ?? 0) : 0;
}

function notBuilt(reason: string | undefined): TrxRentError {
  return new TrxRentError({
    code: 'INVALID_TRANSACTION',
    message: `The signed transfer is not the one built${reason ? ` (${reason})` : ''}; nothing was sent`,
    details: { stage: 'sign', transfer_sent: false },
  });
}

/** Sign `unsigned` with the signer and check the result is exactly the transfer built, by the sender. */
export async function signChecked(
  tx: TxModule,
  who: TransferWho,
  unsigned: ReturnType<TxModule['buildTrc20Transfer']>,
  intent: Intent,
): Promise<TransferRecord['signed']> {
  if (isPermissionSigners(who)) return signByPermission(tx, who, unsigned, intent);
  const signed = (
    who.privateKey !== undefined ? tx.signTransaction(unsigned, who.privateKey) : await who.tronWeb.trx.sign(unsigned as never)
  ) as typeof unsigned & { signature: string[] };
  // Trust only raw_data_hex: it must be the transfer built here, signed by the sender. A key held
  // here signed exactly these bytes a moment ago, so only another signer's signature (which may
  // come from another key or another transaction) pays for the recovery, the dearest step.
  const from = who.from;
  const check = who.privateKey !== undefined ? tx.verifySignedTransaction(signed, () => from) : tx.verifySignedTransaction(signed);
  const d = check.ok ? check.decoded : undefined;
  if (
    !d ||
    d.txID !== unsigned.txID ||
    d.ownerAddress !== from ||
    d.trc20Transfer?.to !== intent.to ||
    d.trc20Transfer.amount !== BigInt(intent.amount_atomic)
  ) {
    throw notBuilt(check.ok ? undefined : check.reason);
  }
  return { txID: unsigned.txID, raw_data: unsigned.raw_data, raw_data_hex: unsigned.raw_data_hex, signature: signed.signature };
}

/**
 * Every signer of the permission signs the one txID (the permission id is in the raw data, so
 * adding a signature never changes it); then, trusting only raw_data_hex, the transaction must be
 * the transfer built, naming the permission, from the account, and each signature must recover
 * to a distinct key of that permission, their weights reaching its threshold, as java-tron's
 * `TransactionCapsule.checkWeight` will count them.
 */
async function signByPermission(
  tx: TxModule,
  who: PermissionSigners,
  unsigned: ReturnType<TxModule['buildTrc20Transfer']>,
  intent: Intent,
): Promise<TransferRecord['signed']> {
  const { signTransactionWith } = await import('../protocol/signer.js');
  let signed: typeof unsigned & { signature?: string[] } = unsigned;
  for (const signer of who.signers) {
    // The signer signs for the account's permission: named here, whatever its own default.
    const named = {
      address: signer.address,
      permissionId: who.permissionId,
      signDigest: (digest: Uint8Array) => signer.signDigest(digest),
      ...(signer.signTransaction ? { signTransaction: (t: Parameters<NonNullable<typeof signer.signTransaction>>[0]) => signer.signTransaction!(t) } : {}),
    };
    try {
      signed = await signTransactionWith(named, signed);
    } catch (error) {
      if (error instanceof TrxRentError) throw error;
      throw new TrxRentError({
        code: 'INVALID_TRANSACTION',
        message: `${signer.address} could not sign the transfer (${(error as Error).message}); nothing was sent`,
        details: { stage: 'sign', transfer_sent: false, signer: signer.address },
        cause: error,
      });
    }
  }
  const signatures = signed.signature ?? [];
  if (tx.transactionId(unsigned.raw_data_hex) !== unsigned.txID.toLowerCase()) throw notBuilt('txid_mismatch');
  const d = tx.decodeRawDataHex(unsigned.raw_data_hex);
  if (
    d.ownerAddress !== who.from ||
    (d.permissionId ?? 0) !== who.permissionId ||
    d.trc20Transfer?.to !== intent.to ||
    d.trc20Transfer.amount !== BigInt(intent.amount_atomic)
  )
    throw notBuilt(undefined);
  if (signatures.length !== who.signers.length) throw notBuilt(`${signatures.length} signatures from ${who.signers.length} signers`);
  const seen = new Set<string>();
  let weight = 0;
  for (const sig of signatures) {
    const by = tx.recoverTransactionSigner(unsigned.txID.toLowerCase(), sig);
    const key = by === undefined ? undefined : who.permission.keys.find((k) => k.address === by);
    if (!by || !key) throw notBuilt(`a signature recovers to ${by ?? 'no key'}, not a key of permission ${who.permissionId} of ${who.from}`);
    if (seen.has(by)) throw notBuilt(`${by} signed twice`);
    seen.add(by);
    weight += key.weight;
  }
  if (weight < who.permission.threshold)
    throw notBuilt(`the signatures weigh ${weight}, short of permission ${who.permissionId}'s threshold ${who.permission.threshold}`);
  return { txID: unsigned.txID, raw_data: unsigned.raw_data, raw_data_hex: unsigned.raw_data_hex, signature: signatures };
}
