import { TrxRentError } from '../errors/index.js';
import { ACCOUNT_WIRE as E } from '../api/account.js';
import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import { PrepareDepositRequest, type SubmitDepositRequest } from '../schemas/deposits.js';
import type { Signer } from '../protocol/signers/signature.js';
import { Resource } from './resource.js';

/** A TronWeb instance with a default account, as far as `deposits.create` uses one. */
export interface DepositTronWeb {
  defaultAddress?: { base58?: string | false } | undefined;
  transactionBuilder: {
    /** Builds an unsigned TRX transfer of `amount` SUN (naming `options.permissionId` when given). */
    sendTrx(to: string, amount: number, from?: string, options?: { permissionId?: number }): Promise<unknown>;
    /** Adds the memo to the transaction's `data` field. */
    addUpdateData(tx: never, data: string, dataFormat?: 'utf8' | 'hex', options?: { txLocal?: boolean }): Promise<unknown>;
  };
  trx: {
    /** Signs the transaction with the instance's key (or `privateKey`). */
    sign(tx: never, privateKey?: string): Promise<unknown>;
  };
}

/**
 * Who signs a deposit: a private key (hex, with or without 0x) and the full node tronweb builds
 * against (default TronGrid mainnet), a TronWeb instance that builds and holds its own key, or
 * any {@link Signer} (`trx-rent/signers`: a KMS key, your function; tronweb builds against
 * `fullHost`). A key is used in this process only.
 */
export type DepositSigner = { privateKey: string; fullHost?: string } | DepositTronWeb | Signer;

/** What {@link Deposits.create} deposits, and who signs it. */
export interface CreateDepositParams {
  /** Amount to deposit, in SUN (1 TRX = 1,000,000 SUN); an integer. */
  amount_sun: number;
  /** The key, TronWeb instance or Signer that signs the transfer; the deposit is sent from its address. */
  signer: DepositSigner;
  /**
   * The full node tronweb builds the transfer against when the signer is not a TronWeb instance.
   * @default the signer's `fullHost`, else https://api.trongrid.io
   */
  fullHost?: string;
}

/** A submitted deposit: the service's answer plus what was signed. */
export interface CreatedDeposit {
  /** The transfer's transaction id. */
  tx_id: string;
  /** The service's status for the submitted deposit. */
  status: string;
  /** The deposit address paid. */
  address: string;
  /** The memo that credits this account. */
  memo: string;
  /** Amount deposited, in SUN. */
  amount_sun: number;
  /** The signer's address. */
  from_address: string;
}

/** `client.deposits`: the deposit address and memo, and a signed TRX deposit built, signed and submitted. */
export class Deposits extends Resource {
  /** Address and memo for a manual TRX deposit (follows the live service). */
  info(options?: RequestOptions) {
    return this.call(E.getDepositInfo, {}, options);
  }

  /** The platform address and your memo (and its hex) for a transfer. */
  prepare(params: PrepareDepositRequest, options?: RequestOptions) {
    return this.call(E.prepareDeposit, { body: params }, options);
  }

  /** Submit a signed TRX transfer carrying the memo (public endpoint). */
  submit(params: SubmitDepositRequest, options?: RequestOptions) {
    return this.call(E.submitDeposit, { body: params }, options);
  }

  /**
   * Deposit TRX in one call: prepare (address + memo), build the TRX transfer with the memo in
   * its data field (tronweb, loaded here on first use), check the built transaction decodes to
   * exactly that transfer, sign it (locally, or with the given Signer), and submit it. A private
   * key never leaves the process. Needs the optional peer `tronweb`.
   */
  async create(params: CreateDepositParams, options?: RequestOptions): Promise<CreatedDeposit> {
    // secp256k1 and protobuf code load only for deposits, not with the core.
    const [{ verifySignedTransaction }, { signTransactionWith, toSigner }, { fromTronWeb, isTronWeb }] = await Promise.all([
      import('../protocol/tron-transaction.js'),
      import('../protocol/signer.js'),
      import('../protocol/signers/tronweb.js'),
    ]);
    const { amount_sun } = validateRequest(PrepareDepositRequest, { amount_sun: params?.amount_sun });
    const input = params.signer;
    const instance = isTronWeb(input) ? (input as unknown as DepositTronWeb) : undefined;
    // One signer whatever was given: a TronWeb instance signs with its key (or its wallet), a key or a Signer as itself.
    const signer = instance ? fromTronWeb(instance as never) : toSigner(input as Signer | { privateKey: string });
    const from = signer.address;

    const prepared = await this.prepare({ amount_sun }, options);
    let tronWeb = instance;
    if (!tronWeb) {
      // Through the one peer loader (a missing tronweb is a MissingPeerDependencyError naming the install command).
      const { loadTronWeb } = await import('../peers/index.js');
      const mod = (await loadTronWeb()) as unknown as { TronWeb: new (options: { fullHost: string }) => unknown };
      const fullHost = (input as { fullHost?: string }).fullHost ?? params.fullHost ?? 'https://api.trongrid.io';
      tronWeb = new mod.TronWeb({ fullHost }) as DepositTronWeb;
    }
    const unsigned = await tronWeb.transactionBuilder.sendTrx(
      prepared.address,
      amount_sun,
      from,
      signer.permissionId ? { permissionId: signer.permissionId } : undefined,
    );
    const withMemo = await tronWeb.transactionBuilder.addUpdateData(unsigned as never, prepared.memo_hex.replace(/^0x/, ''), 'hex', { txLocal: true });
    const signed = (await signTransactionWith(signer, withMemo as never)) as {
      txID: string;
      raw_data: Record<string, unknown>;
      raw_data_hex?: string;
      signature: string[];
    };

    // Trust only raw_data_hex: it must be exactly the deposit we asked for, signed by us.
    const check = verifySignedTransaction(signed);
    const d = check.ok ? check.decoded : undefined;
    if (
      !check.ok ||
      !d ||
      d.contractType !== 'TransferContract' ||
      d.toAddress !== prepared.address ||
      d.amountSun !== BigInt(amount_sun) ||
      d.ownerAddress !== from ||
      (d.dataHex ?? '').toLowerCase() !== prepared.memo_hex.replace(/^0x/, '').toLowerCase()
    ) {
      throw new TrxRentError({
        code: 'INVALID_TRANSACTION',
        message: `The built deposit transaction is not the expected transfer${check.ok ? '' : ` (${check.reason})`}; nothing was submitted`,
      });
    }
    const result = await this.submit({ signed_tx: signed }, options);
    return { ...result, tx_id: result.tx_id, status: result.status, address: prepared.address, memo: prepared.memo, amount_sun, from_address: from };
  }
}
