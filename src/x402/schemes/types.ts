/**
 * The structural types a payer and its scheme clients share: the few members of @x402/core's
 * client they touch, what a payment in progress offers a scheme, and the TRON signer. Kept apart
 * from `payers.ts` so the scheme modules and the payers import this, not each other.
 *
 * @module
 */
import type { TypedDataDefinition } from '../../protocol/tip712.js';

type Hex = `0x${string}`;

/** The few members of @x402/core's x402Client a payer registers on (kept structural so our types need no peer). */
export interface CoreClientLike {
  register(network: string, client: SchemeClientLike): unknown;
  registerV1(network: string, client: SchemeClientLike): unknown;
}

/** @x402/core's SchemeNetworkClient, structurally. */
export interface SchemeClientLike {
  readonly scheme: string;
  findDefaultAsset?: (asset: string, network: string) => { asset: string; decimals: number; symbol: string } | undefined;
  createPaymentPayload(
    x402Version: number,
    requirements: Record<string, unknown> & {
      scheme: string;
      network: string;
      asset: string;
      amount: string;
      payTo: string;
      maxTimeoutSeconds: number;
      extra: Record<string, unknown>;
    },
    context?: { extensions?: Record<string, unknown>; maxAmountPerPayment?: string },
  ): Promise<{ x402Version: number; payload: Record<string, unknown>; extensions?: Record<string, unknown> }>;
}

/**
 * What a payment in progress offers the schemes: the spend check for a fee learnt late, the
 * client's transport for the third-party JSON services they call (TRON full node, GasFree
 * relayer), and the refusal to throw when a scheme cannot sign within the client's limits.
 */
export interface PaymentContext {
  /**
   * A scheme learnt a fee on top of the offer's amount while building the payment (GasFree
   * maxFee). Throws PaymentRefusedError when amount + fee no longer fits maxPayment or the budget.
   */
  authorizeFee(offer: { asset: string; network: string; amount: string }, feeAtomic: bigint): void;
  /**
   * One JSON request through the client's transport (its timeout, the call's signal, no
   * redirects, a bounded body). Resolves with the parsed body of a 2xx; throws otherwise.
   */
  requestJson(url: string, init?: { method?: 'GET' | 'POST'; body?: string }): Promise<unknown>;
  /** The PaymentRefusedError to throw when the payment cannot be made within the client's limits (e.g. its validity cap). */
  refuse(message: string): Error;
}

/** The parts of a TronWeb instance a payer uses. */
export interface TronWebLike {
  defaultAddress?: { base58?: string | false } | undefined;
  trx: {
    /** TIP-712 typed-data signature (permits, GasFree). */
    signTypedData(domain: unknown, types: unknown, value: unknown, privateKey?: string): string | Promise<string>;
    /** Signs a transaction (the `exact` scheme's TRC-20 transfer). */
    sign(transaction: unknown, privateKey?: string): Promise<unknown>;
    /** The latest block, for the transaction's reference block (else the full node is asked). */
    getCurrentBlock?(): Promise<unknown>;
  };
}

/** Signs TIP-712 typed data and TRON transactions for the TRON schemes. */
export interface TronSigner {
  address: string;
  signTypedData(data: TypedDataDefinition): Promise<Hex>;
  signTransaction<T extends { txID: string }>(tx: T): Promise<T & { signature: string[] }>;
  tronWeb: TronWebLike | undefined;
}
