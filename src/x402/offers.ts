/**
 * The offers of a 402 challenge, checked: each normalised (v1 or v2), valued in USD exactly
 * (atomic units scaled to 18 decimals, bigint, no floats) and held to the caller's controls (a
 * network known by its exact id, a known asset, allow-lists, maxPayment, the budget), then one
 * chosen (the caller's `prefer` order first, the cheapest otherwise). Nothing here signs,
 * sends or reserves: `SpendControl` (`spend.ts`) does, over these checks.
 * @module
 */
import { ValidationError } from '../errors/index.js';
import {
  NETWORKS,
  TRON_CHAIN_IDS,
  type TokenInfo,
  evmChainId,
  findToken,
  isEvmNetwork,
  isTronNetwork,
  normaliseNetwork,
  tronNetworkName,
} from '../protocol/networks.js';
import { PaymentRequirementsV1, PaymentRequirementsV2 } from '../schemas/x402.js';
import { atomicToDecimal, decimalToAtomic } from '../utils/units.js';
import type { SpendingCap } from '../utils/spending-cap.js';
import { PaymentRefusedError, type RefusalReason, type RefusedOffer } from './errors.js';

/** USD amounts are held as bigint with 18 decimals ("atto-USD"). */
export const USD_DECIMALS = 18;

/** A USD decimal string as atto-USD; a negative or malformed amount is a VALIDATION_ERROR naming `field`. */
export function usdToAtto(value: string, field = 'amount'): bigint {
  const atto = decimalToAtomic(value, USD_DECIMALS, field);
  if (atto < 0n) throw new ValidationError({ code: 'VALIDATION_ERROR', message: `${field} must not be negative`, details: { field } });
  return atto;
}

/** Atto-USD as a USD decimal string. */
export function attoToUsd(atto: bigint): string {
  return atomicToDecimal(atto, USD_DECIMALS);
}

/** The USD value (atto) of `amount` atomic units of a stablecoin with `decimals`. */
export function tokenToAtto(amount: bigint, decimals: number): bigint {
  return decimals <= USD_DECIMALS ? amount * 10n ** BigInt(USD_DECIMALS - decimals) : amount / 10n ** BigInt(decimals - USD_DECIMALS);
}

/** One entry of `accepts`, in both wire versions, with what the spend checks need. */
export interface Offer {
  x402Version: 1 | 2;
  /** The entry exactly as received (what gets echoed back). */
  raw: Record<string, unknown>;
  scheme: string;
  network: string;
  canonicalNetwork: string;
  asset: string;
  payTo: string;
  /** Required amount, atomic units. */
  amount: bigint;
  /** Fee the scheme authorises on top of `amount` and that is known from the offer (permit `extra.fee`). */
  fee: bigint;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
  token: TokenInfo | undefined;
}

/** One entry of a challenge's `accepts`, parsed with its version's schema and normalised; a string says why it is invalid. */
export function parseOffer(x402Version: 1 | 2, raw: unknown): Offer | string {
  const schema = x402Version === 1 ? PaymentRequirementsV1 : PaymentRequirementsV2;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.') || 'offer'}: ${issue?.message ?? 'invalid'}`;
  }
  const r = parsed.data as Record<string, unknown> & {
    scheme: string;
    network: string;
    asset: string;
    payTo: string;
    maxTimeoutSeconds: number;
    extra?: Record<string, unknown>;
  };
  const amount = BigInt(x402Version === 1 ? (r.maxAmountRequired as string) : (r.amount as string));
  const extra = r.extra ?? {};
  let fee = 0n;
  const feeInfo = extra.fee as { feeAmount?: unknown } | undefined;
  if (feeInfo && typeof feeInfo === 'object' && feeInfo.feeAmount !== undefined) {
    if (typeof feeInfo.feeAmount !== 'string' || !/^\d+$/.test(feeInfo.feeAmount)) return 'extra.fee.feeAmount: must be an integer string';
    fee = BigInt(feeInfo.feeAmount);
  }
  return {
    x402Version,
    raw: raw as Record<string, unknown>,
    scheme: r.scheme,
    network: r.network,
    canonicalNetwork: normaliseNetwork(r.network),
    asset: r.asset,
    payTo: r.payTo,
    amount,
    fee,
    maxTimeoutSeconds: r.maxTimeoutSeconds,
    extra,
    token: undefined,
  };
}

/** A preferred offer: a network name (`base`, `tron`), or a network/asset/scheme pattern. */
export type PreferEntry = string | { network?: string; asset?: string; scheme?: string };

/** What the client may pay: offers outside the list are refused, never signed. */
export interface AllowList {
  /** Recipients you accept (base58 TRON or 0x EVM addresses). */
  payTo?: readonly string[];
  /** Assets you accept: symbols (`USDT`), contract addresses, or `network/asset` pairs (`tron/USDD`). */
  assets?: readonly string[];
  /** Networks you accept: `tron`, `base`, or any CAIP-2 id / alias. */
  networks?: readonly string[];
}

/**
 * Total spend across calls: the shared spending cap (`utils/spending-cap.ts`) in atto-USD. A
 * payment is reserved when its offer is chosen (so concurrent calls cannot overspend), committed
 * when the server settles it, and released when nothing was paid. A payment whose outcome is
 * unknown (connection lost after sending it) stays counted.
 */
export type Budget = SpendingCap;

/** What `evaluateOffers` checks offers against: the caps, the allow-list, the preference and who can pay. */
export interface SpendPolicy {
  maxPaymentAtto: bigint;
  budget: Budget | undefined;
  allow: AllowList | undefined;
  prefer: readonly PreferEntry[] | undefined;
  /** Extra tokens the caller declared known (beyond the built-in registry). */
  tokens: readonly TokenInfo[];
  /** Can some payer sign this (network, scheme)? */
  canPay: (offer: Offer) => boolean;
}

/** The offers of one challenge, checked: those that may be paid (with their USD cost) and those refused, with why. */
export interface Evaluation {
  accepted: Array<Offer & { costAtto: bigint }>;
  refused: RefusedOffer[];
}

function matchesNetwork(pattern: string, network: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p === 'tron' || p === 'tron:*') return isTronNetwork(network);
  if (p === 'evm' || p === 'eip155:*') return isEvmNetwork(network);
  return normaliseNetwork(pattern) === normaliseNetwork(network);
}

function isNetworkPattern(value: string): boolean {
  const v = value.trim().toLowerCase();
  return v === 'tron' || v === 'evm' || v.endsWith(':*') || tronNetworkName(value) !== undefined || evmChainId(value) !== undefined;
}

function matchesAsset(pattern: string, offer: Offer): boolean {
  const p = pattern.trim();
  if (p.includes('/')) {
    const [net, asset] = p.split('/', 2) as [string, string];
    return matchesNetwork(net, offer.network) && matchesAsset(asset, offer);
  }
  if (offer.token && p.toUpperCase() === offer.token.symbol) return true;
  return p.startsWith('0x') ? p.toLowerCase() === offer.asset.toLowerCase() : p === offer.asset;
}

function samePayTo(a: string, b: string): boolean {
  return a.startsWith('0x') || b.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function preferRank(prefer: readonly PreferEntry[] | undefined, offer: Offer): number {
  if (!prefer) return 0;
  for (let i = 0; i < prefer.length; i++) {
    const entry = prefer[i]!;
    if (typeof entry === 'string') {
      const text = entry.trim();
      if (text.includes('/')) {
        if (matchesAsset(text, offer)) return i;
      } else if (/^exact/.test(text)) {
        if (offer.scheme === text) return i;
      } else if (isNetworkPattern(text)) {
        if (matchesNetwork(text, offer.network)) return i;
      } else if (matchesAsset(text, offer)) return i;
    } else {
      if (entry.network && !matchesNetwork(entry.network, offer.network)) continue;
      if (entry.asset && !matchesAsset(entry.asset, offer)) continue;
      if (entry.scheme && entry.scheme !== offer.scheme) continue;
      return i;
    }
  }
  return prefer.length;
}

/** An offer as a refusal reports it (`PaymentRefusedError.offers`): amount plus fee, its USD value when known, the reason. */
export function refusedOffer(offer: Offer, reason: RefusalReason, message: string, costAtto?: bigint): RefusedOffer {
  return {
    scheme: offer.scheme,
    network: offer.network,
    asset: offer.asset,
    amount: (offer.amount + offer.fee).toString(),
    amount_usd: costAtto === undefined ? undefined : attoToUsd(costAtto),
    payTo: offer.payTo,
    reason,
    message,
  };
}

/**
 * Every network id an offer may name, spelled exactly as servers send them (CAIP-2 ids in their
 * known forms, x402 v1 short names). An own-property table with no prototype: `constructor`,
 * `__proto__`, `EIP155:8453`, ` eip155:8453` or `Base` are unknown networks, refused before
 * any lenient alias matching could read them as something else.
 */
const KNOWN_NETWORKS: Readonly<Record<string, true>> = (() => {
  const table: Record<string, true> = Object.create(null);
  const genesis: Record<keyof typeof TRON_CHAIN_IDS, string> = { mainnet: '27Lqcw', nile: '6FhfKq', shasta: '4oPwXB' };
  for (const [name, id] of Object.entries(TRON_CHAIN_IDS) as Array<[keyof typeof TRON_CHAIN_IDS, number]>) {
    // Hex chain ids in either digit case (both are in use); the `tron:` prefix only in lower case, as CAIP-2 spells it.
    for (const ref of [name, String(id), `0x${id.toString(16)}`, `0x${id.toString(16).toUpperCase()}`, genesis[name]]) table[`tron:${ref}`] = true;
    table[`tron-${name}`] = true;
  }
  for (const id of ['tron', NETWORKS.BASE, NETWORKS.BASE_SEPOLIA, 'base', 'base-sepolia']) table[id] = true;
  return Object.freeze(table);
})();

/** True when `network` is, exactly, a network this package pays on (or one of `extra`). */
export function isKnownNetwork(network: unknown, extra: ReadonlySet<string> = new Set()): boolean {
  return typeof network === 'string' && (Object.hasOwn(KNOWN_NETWORKS, network) || extra.has(network));
}

/** Check every offer against the policy. Nothing here signs or sends anything. */
export function evaluateOffers(x402Version: 1 | 2, accepts: readonly unknown[], policy: SpendPolicy): Evaluation {
  const extraNetworks = new Set(policy.tokens.map((t) => t.network));
  const accepted: Evaluation['accepted'] = [];
  const refused: RefusedOffer[] = [];
  for (const raw of accepts) {
    const offer = parseOffer(x402Version, raw);
    if (typeof offer === 'string') {
      const r = (raw ?? {}) as Record<string, unknown>;
      refused.push({
        scheme: String(r.scheme ?? ''),
        network: String(r.network ?? ''),
        asset: String(r.asset ?? ''),
        amount: String(r.amount ?? r.maxAmountRequired ?? ''),
        payTo: String(r.payTo ?? ''),
        reason: 'invalid_offer',
        message: offer,
      });
      continue;
    }
    if (!isKnownNetwork(offer.network, extraNetworks)) {
      refused.push(
        refusedOffer(offer, 'unknown_network', `network ${JSON.stringify(offer.network)} is not a network this client pays on (ids are matched exactly)`),
      );
      continue;
    }
    offer.token = findToken(offer.asset, offer.network, policy.tokens);
    if (!policy.canPay(offer)) {
      refused.push(refusedOffer(offer, 'no_payer', `no payer for scheme ${offer.scheme} on ${offer.network}`));
      continue;
    }
    const allow = policy.allow;
    if (allow?.networks && !allow.networks.some((n) => matchesNetwork(n, offer.network))) {
      refused.push(refusedOffer(offer, 'network_not_allowed', `network ${offer.network} is not on the allow-list`));
      continue;
    }
    if (!offer.token) {
      refused.push(refusedOffer(offer, 'unknown_asset', `asset ${offer.asset} on ${offer.network} is not a known stablecoin`));
      continue;
    }
    const cost = tokenToAtto(offer.amount + offer.fee, offer.token.decimals);
    if (allow?.assets && !allow.assets.some((a) => matchesAsset(a, offer))) {
      refused.push(refusedOffer(offer, 'asset_not_allowed', `asset ${offer.token.symbol} (${offer.asset}) is not on the allow-list`, cost));
      continue;
    }
    if (allow?.payTo && !allow.payTo.some((p) => samePayTo(p, offer.payTo))) {
      refused.push(refusedOffer(offer, 'pay_to_not_allowed', `payTo ${offer.payTo} is not on the allow-list`, cost));
      continue;
    }
    if (cost > policy.maxPaymentAtto) {
      refused.push(refusedOffer(offer, 'above_max_payment', `${attoToUsd(cost)} USD is above maxPayment ${attoToUsd(policy.maxPaymentAtto)} USD`, cost));
      continue;
    }
    if (policy.budget && cost > policy.budget.remaining) {
      refused.push(
        refusedOffer(offer, 'over_budget', `${attoToUsd(cost)} USD is more than the ${attoToUsd(policy.budget.remaining)} USD left in the budget`, cost),
      );
      continue;
    }
    accepted.push({ ...offer, costAtto: cost });
  }
  return { accepted, refused };
}

/** The preferred offer (caller's `prefer` order), cheapest first within the same rank. */
export function chooseOffer(evaluation: Evaluation, prefer: readonly PreferEntry[] | undefined): (Offer & { costAtto: bigint }) | undefined {
  let best: (Offer & { costAtto: bigint; rank: number }) | undefined;
  for (const offer of evaluation.accepted) {
    const rank = preferRank(prefer, offer);
    if (!best || rank < best.rank || (rank === best.rank && offer.costAtto < best.costAtto)) best = { ...offer, rank };
  }
  if (!best) return undefined;
  const { rank: _rank, ...offer } = best;
  return offer;
}

/** The PaymentRefusedError for a challenge none of whose offers passed, naming each offer's reason. */
export function refusal(evaluation: Evaluation): PaymentRefusedError {
  const reasons = [...new Set(evaluation.refused.map((r) => r.reason))];
  const summary = evaluation.refused.length
    ? evaluation.refused.map((r) => `${r.scheme} ${r.network} ${r.asset}: ${r.message}`).join('; ')
    : 'the challenge offered nothing';
  return new PaymentRefusedError(`Payment refused before signing (${reasons.join(', ') || 'no offers'}): ${summary}`, evaluation.refused);
}
