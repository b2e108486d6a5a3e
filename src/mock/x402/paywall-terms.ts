/**
 * The terms of the mock's paywall, shared by the paywall and each scheme's verifier: its
 * options, where payments go (`MOCK_PAY_TO`, Base USDC), prices in atomic units, the shapes
 * of a quote, an offer, a verification and a settlement, what a verifier reads and records
 * ({@link PaywallState}), and the TIP-712 / EIP-712 signer recovery the signed schemes use.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { toTronAddress, tronAddressToEvmHex } from '../../utils/address.js';
import { GASFREE_CONTROLLERS, type TronScheme } from '../../protocol/networks.js';
import { loadViem } from '../../peers/index.js';
import type { TypedDataDefinition } from '../../protocol/tip712.js';
import type { SimulatedChain } from '../chain/chain.js';
import { labelAddress } from '../chain/labels.js';
import type { ChainToken } from '../chain/types.js';

export interface PaywallOptions {
  /** Wire version of the challenge: 2 (header + body) or 1 (body only, Base USDC only). Default 2. */
  version?: 1 | 2;
  /** How TRON offers spell the network (any alias normalises the same). Default `tron:0x2b6653dc`. */
  tronNetwork?: string;
  /** TRON schemes offered. Default all three. */
  schemes?: readonly TronScheme[];
  /** Offer Base USDC. Default true. */
  offerBase?: boolean;
  /** Reject payers that do not hold the tokens on the simulated chain. Default false (shortfall minted). */
  requireFunds?: boolean;
  /** v2 EVM amount rule: exact match (true, the v2 spec) or at least (false). Default true. */
  strictEvmAmount?: boolean;
  /** Seconds an authorization may stay valid. Default 300. */
  maxTimeoutSeconds?: number;
  /** GasFree relayer fee per transfer (atomic units of the token). Default '0' (the simulated provider sponsors it). */
  gasfreeTransferFee?: string;
}

export const MOCK_PAY_TO = {
  tron: labelAddress('x402 treasury'),
  evm: evmLabelAddress('x402 treasury'),
  /** PaymentPermit fee recipient (the facilitator). */
  facilitator: labelAddress('x402 facilitator'),
  /** The simulated GasFree service provider. */
  gasfreeProvider: labelAddress('gasfree provider'),
};

export const BASE_USDC = { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', name: 'USD Coin', version: '2', decimals: 6 } as const;

function evmLabelAddress(label: string): string {
  const lower = bytesToHex(sha256(new TextEncoder().encode(`trx-rent mock evm ${label}`))).slice(0, 40);
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/** GasFree address of a user on the simulated controller (deterministic stand-in for CREATE2). */
export function gasFreeAddressOf(user: string): string {
  const hex = bytesToHex(keccak_256(new TextEncoder().encode(`gasfree ${tronAddressToEvmHex(user)} ${GASFREE_CONTROLLERS.mainnet}`))).slice(24);
  return toTronAddress(`41${hex}`);
}

/** USD price in micro-USD (6 decimals) -> amount of `decimals` atomic units. */
export function microUsdToAtomic(micro: bigint, decimals: number): bigint {
  return decimals >= 6 ? micro * 10n ** BigInt(decimals - 6) : micro / 10n ** BigInt(6 - decimals);
}

export interface PriceRequest {
  method: string;
  url: string;
  /** Stable identity of the request (method, path, query, body) for dynamic quotes. */
  key: string;
  priceMicroUsd: bigint;
  description: string;
  /** Per-request wire version override (x-mock-x402-version). */
  version?: 1 | 2;
}

export interface Requirement {
  scheme: string;
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
  token: ChainToken | typeof BASE_USDC;
}

export interface SettledPayment {
  x402Version: 1 | 2;
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  payer: string;
  payTo: string;
  transaction: string;
  resource: string;
  at: number;
}

/** A settled payment's answer: the PAYMENT-RESPONSE (X-PAYMENT-RESPONSE for v1) header and what it encodes. */
export interface SettledResponse {
  header: string;
  headerName: string;
  settlement: Record<string, unknown>;
}

export type Verification = { ok: true; payer: string; settle: () => SettledResponse | Failure } | Failure;

export interface Failure {
  ok: false;
  reason: string;
  message: string;
  /** Always 402: the spec answers every call without valid payment (malformed ones included) with 402 and the reason. */
  status: 402;
  payer?: string | undefined;
  /** The network the payment named, so every settlement result names its network. */
  network?: string | undefined;
}

/** A refused payment (always 402). */
export const fail = (reason: string, message: string, payer?: string): Failure => ({ ok: false, reason, message, status: 402, payer });

/** A PaymentPermit context the paywall issued with a challenge: its nonce, window, and whether a payment used it. */
export interface IssuedPermit {
  nonce: string;
  validAfter: number;
  validBefore: number;
  used: boolean;
}

/**
 * What a scheme's verifier reads and records: the paywall's options, clock and chain, the
 * one-use records (permits issued, EVM nonces, TRON txIDs, GasFree nonces), and its two shared
 * steps (the funds check, the settlement record and header).
 */
export interface PaywallState {
  readonly options: Required<PaywallOptions>;
  readonly chain: SimulatedChain;
  readonly now: () => number;
  readonly issuedPermits: Map<string, IssuedPermit>;
  readonly usedEvmNonces: Set<string>;
  readonly usedTxIds: Set<string>;
  readonly gasfreeNonces: Map<string, number>;
  /** With `requireFunds`: a failure when `holder` holds less than the offer (plus `extra`). */
  checkFunds(offer: Requirement, holder: string, extra?: bigint): Failure | undefined;
  /** Record a settled payment and build its response header. */
  settled(version: 1 | 2, offer: Requirement, payer: string, transaction: string, amount: string, req: PriceRequest): SettledResponse;
}

/** The address that signed TIP-712 / EIP-712 typed data, or undefined when it does not recover. */
export async function recoverTypedData(typed: TypedDataDefinition, signature: string): Promise<string | undefined> {
  const { recoverTypedDataAddress } = await loadViem();
  try {
    // The maintained TRON x402 client sends TIP-712 signatures without the 0x prefix.
    const hex = /^0x/i.test(signature) ? signature : `0x${signature}`;
    return await recoverTypedDataAddress({ ...typed, signature: hex as `0x${string}` } as never);
  } catch {
    return undefined;
  }
}
