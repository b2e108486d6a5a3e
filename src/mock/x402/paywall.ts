/**
 * The mock's x402 facilitator, offline: builds 402 challenges (v2 in the PAYMENT-REQUIRED header
 * and the body; v1 in the body only), verifies payment payloads without any chain access but
 * the simulated one (signature recovery, scheme, network, asset, payTo, amount, validity window,
 * nonce / paymentId / txID used once) and settles them (records the nonce, moves the tokens on
 * the simulated TRON chain, returns a settlement response).
 *
 * Error reasons follow the reference facilitators where they have one
 * (`invalid_exact_evm_payload_signature`, `…_recipient_mismatch`, `…_valid_before`,
 * `duplicate_settlement`, GasFree's `gasfree_*`), and name the failed check otherwise.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex } from '@noble/hashes/utils';
import { PaymentPayloadV1, PaymentPayloadV2 } from '../../schemas/x402.js';
import { verifySignedTransaction } from '../../protocol/tron-transaction.js';
import { isTronAddress, toTronAddress, tronAddressToEvmHex } from '../../utils/address.js';
import { decodeBase64Json, encodeBase64Json, HEADERS } from '../../protocol/codec.js';
import {
  GASFREE_CONTROLLERS,
  PAYMENT_PERMIT_CONTRACTS,
  TRON_CHAIN_IDS,
  TRON_ZERO_ADDRESS,
  type TronScheme,
  TRON_SCHEMES,
  evmChainId,
  normaliseNetwork,
  tronNetworkName,
} from '../../protocol/networks.js';
import { loadViem } from '../../peers/index.js';
import {
  gasFreeTypedData,
  paymentPermitTypedData,
  transferWithAuthorizationTypedData,
  type GasFreeMessageJson,
  type PaymentPermitJson,
  type TypedDataDefinition,
} from '../../protocol/tip712.js';
import { type ChainToken, CHAIN_TOKENS, type SimulatedChain, labelAddress } from '../chain/chain.js';
import type { HeaderReader } from '../http/headers.js';

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

export type Verification =
  | { ok: true; payer: string; settle: () => { header: string; headerName: string; settlement: Record<string, unknown> } | Failure }
  | Failure;

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

const fail = (reason: string, message: string, payer?: string): Failure => ({ ok: false, reason, message, status: 402, payer });

interface IssuedPermit {
  nonce: string;
  validAfter: number;
  validBefore: number;
  used: boolean;
}

export class Paywall {
  options: Required<PaywallOptions>;
  readonly issuedPermits = new Map<string, IssuedPermit>();
  readonly usedEvmNonces = new Set<string>();
  readonly usedTxIds = new Set<string>();
  readonly gasfreeNonces = new Map<string, number>();
  readonly #quotes = new Map<string, { amounts: Set<string>; at: number }>();
  readonly payments: SettledPayment[] = [];

  constructor(
    private readonly chain: SimulatedChain,
    private readonly now: () => number,
    private readonly randomHex: (bytes: number) => string,
    options: PaywallOptions = {},
  ) {
    this.options = Paywall.resolve(options);
  }

  static resolve(options: PaywallOptions): Required<PaywallOptions> {
    return {
      version: options.version ?? 2,
      tronNetwork: options.tronNetwork ?? 'tron:0x2b6653dc',
      schemes: options.schemes ?? TRON_SCHEMES,
      offerBase: options.offerBase ?? true,
      requireFunds: options.requireFunds ?? false,
      strictEvmAmount: options.strictEvmAmount ?? true,
      maxTimeoutSeconds: options.maxTimeoutSeconds ?? 300,
      gasfreeTransferFee: options.gasfreeTransferFee ?? '0',
    };
  }

  configure(options: PaywallOptions): void {
    this.options = Paywall.resolve({ ...this.options, ...options });
  }

  // ---- offers ----

  requirements(priceMicroUsd: bigint, version: 1 | 2): Requirement[] {
    const o = this.options;
    const out: Requirement[] = [];
    if (o.offerBase || version === 1) {
      out.push({
        scheme: 'exact',
        network: version === 1 ? 'base' : 'eip155:8453',
        amount: microUsdToAtomic(priceMicroUsd, BASE_USDC.decimals).toString(),
        asset: BASE_USDC.address,
        payTo: MOCK_PAY_TO.evm,
        maxTimeoutSeconds: o.maxTimeoutSeconds,
        extra: { name: BASE_USDC.name, version: BASE_USDC.version },
        token: BASE_USDC,
      });
    }
    if (version === 1) return out; // no TRON network exists in x402 v1
    const tokens = CHAIN_TOKENS.filter((t, i, all) => all.findIndex((u) => u.symbol === t.symbol) === i); // one contract per symbol
    for (const token of tokens) {
      for (const scheme of o.schemes) {
        const extra: Record<string, unknown> = { name: token.symbol, decimals: token.decimals };
        if (scheme === 'exact_permit') extra.fee = { feeTo: MOCK_PAY_TO.facilitator, feeAmount: '0' };
        out.push({
          scheme,
          network: o.tronNetwork,
          amount: microUsdToAtomic(priceMicroUsd, token.decimals).toString(),
          asset: token.address,
          payTo: MOCK_PAY_TO.tron,
          maxTimeoutSeconds: o.maxTimeoutSeconds,
          extra,
          token,
        });
      }
    }
    return out;
  }

  /** The 402 challenge for a request: status, headers, body. Remembers the quote (dynamic prices). */
  challenge(req: PriceRequest, error = 'Payment required'): { headers: Record<string, string>; body: unknown } {
    const version = req.version ?? this.options.version;
    this.#rememberQuote(req);
    const accepts = this.requirements(req.priceMicroUsd, version).map(({ token: _t, ...r }) => r);
    const expose = { 'access-control-expose-headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE', 'cache-control': 'no-store' };
    if (version === 1) {
      return {
        headers: expose,
        body: {
          x402Version: 1,
          error,
          accepts: accepts.map((r) => ({
            scheme: r.scheme,
            network: r.network,
            maxAmountRequired: r.amount,
            resource: req.url,
            description: req.description,
            mimeType: 'application/json',
            payTo: r.payTo,
            maxTimeoutSeconds: r.maxTimeoutSeconds,
            asset: r.asset,
            extra: r.extra,
          })),
        },
      };
    }
    const body: Record<string, unknown> = {
      x402Version: 2,
      error,
      resource: { url: req.url, description: req.description, mimeType: 'application/json' },
      accepts,
    };
    if (this.options.schemes.includes('exact_permit')) {
      const paymentId = `0x${this.randomHex(16)}`;
      const nonce = BigInt(`0x${this.randomHex(16)}`).toString();
      const nowS = Math.floor(this.now() / 1000);
      const permit = { nonce, validAfter: nowS - 5, validBefore: nowS + 3600, used: false };
      // Forget windows that ended over an hour ago (a paymentId is useless after validBefore).
      for (const [id, p] of this.issuedPermits) if (p.validBefore < nowS - 3600) this.issuedPermits.delete(id);
      this.issuedPermits.set(paymentId, permit);
      body.extensions = {
        paymentPermitContext: {
          meta: { kind: 'PAYMENT_ONLY', paymentId, nonce, validAfter: permit.validAfter, validBefore: permit.validBefore },
        },
      };
    }
    return { headers: { ...expose, [HEADERS.PAYMENT_REQUIRED]: encodeBase64Json(body) }, body };
  }

  #rememberQuote(req: PriceRequest): void {
    const cutoff = this.now() - 10 * 60_000;
    for (const [k, v] of this.#quotes) if (v.at < cutoff) this.#quotes.delete(k);
    const entry = this.#quotes.get(req.key) ?? { amounts: new Set<string>(), at: 0 };
    entry.amounts.add(req.priceMicroUsd.toString());
    entry.at = this.now();
    this.#quotes.set(req.key, entry);
  }

  /** Prices this exact request was quoted (current one included). */
  #quotedPrices(req: PriceRequest): bigint[] {
    const prices = new Set<string>([req.priceMicroUsd.toString(), ...(this.#quotes.get(req.key)?.amounts ?? [])]);
    return [...prices].map(BigInt);
  }

  // ---- verification ----

  /** Verify the payment headers of a request; on success, `settle()` records and moves funds. */
  async verify(headers: HeaderReader, req: PriceRequest): Promise<Verification> {
    const raw = headers.get(HEADERS.PAYMENT_SIGNATURE) ?? headers.get(HEADERS.X_PAYMENT);
    if (!raw) return fail('missing_payment', 'no PAYMENT-SIGNATURE or X-PAYMENT header');
    let decoded: unknown;
    try {
      decoded = decodeBase64Json(raw);
    } catch {
      return fail('invalid_payload', 'the payment header is not base64 JSON');
    }
    const version = (decoded as { x402Version?: unknown })?.x402Version;
    if (version === 2) {
      const parsed = PaymentPayloadV2.safeParse(decoded);
      if (!parsed.success) return fail('invalid_payload', `payment payload: ${parsed.error.issues[0]?.message}`);
      return withNetwork(await this.#verifyV2(parsed.data, req), parsed.data.accepted.network);
    }
    if (version === 1) {
      const parsed = PaymentPayloadV1.safeParse(decoded);
      if (!parsed.success) return fail('invalid_payload', `payment payload: ${parsed.error.issues[0]?.message}`);
      return withNetwork(await this.#verifyV1(parsed.data, req), parsed.data.network);
    }
    return fail('invalid_x402_version', `unsupported x402Version ${String(version)}`);
  }

  /** Find the offered requirement a payment claims, over every price this request was quoted. */
  #match(version: 1 | 2, scheme: string, network: string, asset: string, req: PriceRequest): Requirement[] | Failure {
    const candidates: Requirement[] = [];
    for (const price of this.#quotedPrices(req)) {
      for (const r of this.requirements(price, version)) {
        if (r.scheme === scheme && normaliseNetwork(r.network) === normaliseNetwork(network) && sameAsset(r.asset, asset)) candidates.push(r);
      }
    }
    if (candidates.length) return candidates;
    const offered = this.requirements(req.priceMicroUsd, version);
    if (!offered.some((r) => r.scheme === scheme)) return fail('invalid_scheme', `scheme ${scheme} is not offered`);
    if (!offered.some((r) => r.scheme === scheme && normaliseNetwork(r.network) === normaliseNetwork(network))) {
      return fail('invalid_network', `network ${network} is not offered for ${scheme}`);
    }
    return fail('invalid_asset', `asset ${asset} is not offered on ${network}`);
  }

  async #verifyV2(payload: ReturnType<typeof PaymentPayloadV2.parse>, req: PriceRequest): Promise<Verification> {
    const a = payload.accepted;
    const matched = this.#match(2, a.scheme, a.network, a.asset, req);
    if (!Array.isArray(matched)) return matched;
    const offer = matched.find((r) => r.amount === a.amount);
    if (!sameAsset(matched[0]!.payTo, a.payTo)) {
      return fail(recipientReason(a.scheme, a.network), `accepted.payTo ${a.payTo} is not the offered ${matched[0]!.payTo}`);
    }
    if (!offer) return fail(amountReason(a.scheme, a.network), `accepted.amount ${a.amount} was not offered for this request`);
    if (tronNetworkName(a.network)) {
      if (a.scheme === 'exact_permit') return this.#verifyPermit(payload.payload, offer, req);
      if (a.scheme === 'exact_gasfree') return this.#verifyGasFree(payload.payload, offer, req);
      return this.#verifyTronExact(payload.payload, offer, req);
    }
    return this.#verifyEvm(2, payload.payload, offer, req);
  }

  async #verifyV1(payload: ReturnType<typeof PaymentPayloadV1.parse>, req: PriceRequest): Promise<Verification> {
    const matched = this.#match(1, payload.scheme, payload.network, BASE_USDC.address, req);
    if (!Array.isArray(matched)) return matched;
    // v1 has no `accepted`: the authorization must cover one of the prices quoted for this
    // request (the cheapest is checked; value >= maxAmountRequired is the v1 rule).
    const offer = matched.reduce((low, r) => (BigInt(r.amount) < BigInt(low.amount) ? r : low), matched[0]!);
    return this.#verifyEvm(1, payload.payload, offer, req);
  }

  // ---- EVM exact (EIP-3009) ----

  async #verifyEvm(version: 1 | 2, payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
    const auth = payload.authorization as Record<string, unknown> | undefined;
    const signature = payload.signature;
    if (!auth || typeof signature !== 'string') return fail('invalid_payload', 'payload needs authorization and signature');
    const fields = ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'] as const;
    for (const f of fields) if (typeof auth[f] !== 'string') return fail('invalid_payload', `authorization.${f} is missing`);
    const from = auth.from as string;
    if (!/^0x[0-9a-fA-F]{40}$/.test(from) || !/^0x[0-9a-fA-F]{40}$/.test(auth.to as string)) return fail('invalid_payload', 'authorization addresses must be 0x addresses');
    if (!/^\d+$/.test(auth.value as string) || !/^\d+$/.test(auth.validAfter as string) || !/^\d+$/.test(auth.validBefore as string)) {
      return fail('invalid_payload', 'authorization numbers must be decimal strings', from);
    }
    if (!/^0x[0-9a-fA-F]{64}$/.test(auth.nonce as string)) return fail('invalid_payload', 'authorization.nonce must be 32 bytes of hex', from);
    if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) {
      return fail('invalid_exact_evm_payload_signature', 'only 65-byte EOA signatures can be verified offline', from);
    }
    if ((auth.to as string).toLowerCase() !== offer.payTo.toLowerCase()) {
      return fail('invalid_exact_evm_payload_recipient_mismatch', `authorization.to ${auth.to as string} is not payTo ${offer.payTo}`, from);
    }
    const value = BigInt(auth.value as string);
    const required = BigInt(offer.amount);
    const strict = version === 2 && this.options.strictEvmAmount;
    if (strict ? value !== required : value < required) {
      return fail('invalid_exact_evm_payload_authorization_value', `authorization.value ${value} ${strict ? 'must equal' : 'is below'} ${required}`, from);
    }
    const nowS = BigInt(Math.floor(this.now() / 1000));
    if (BigInt(auth.validAfter as string) > nowS) return fail('invalid_exact_evm_payload_authorization_valid_after', 'the authorization is not valid yet', from);
    if (BigInt(auth.validBefore as string) < nowS + 6n) return fail('invalid_exact_evm_payload_authorization_valid_before', 'the authorization has expired', from);
    const typed = transferWithAuthorizationTypedData(auth as never, {
      name: String(offer.extra.name),
      version: String(offer.extra.version),
      chainId: evmChainId(offer.network)!,
      verifyingContract: offer.asset,
    });
    const signer = await recover(typed, signature);
    if (!signer || signer.toLowerCase() !== from.toLowerCase()) {
      return fail('invalid_exact_evm_payload_signature', 'the signature does not recover to authorization.from', from);
    }
    const nonceKey = `${normaliseNetwork(offer.network)}:${offer.asset.toLowerCase()}:${from.toLowerCase()}:${(auth.nonce as string).toLowerCase()}`;
    if (this.usedEvmNonces.has(nonceKey)) return fail('duplicate_settlement', 'this authorization nonce was already used', from);
    return {
      ok: true,
      payer: from,
      settle: () => {
        if (this.usedEvmNonces.has(nonceKey)) return fail('duplicate_settlement', 'this authorization nonce was already used', from);
        this.usedEvmNonces.add(nonceKey);
        const transaction = `0x${bytesToHex(keccak_256(new TextEncoder().encode(`${nonceKey}:${signature}`)))}`;
        return this.#settled(version, offer, from, transaction, value.toString(), req);
      },
    };
  }

  // ---- TRON exact_permit ----

  async #verifyPermit(payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
    const permit = payload.paymentPermit as PaymentPermitJson | undefined;
    const signature = payload.signature;
    if (!permit || typeof signature !== 'string' || !permit.meta || !permit.payment || !permit.fee) {
      return fail('invalid_payload', 'payload needs paymentPermit and signature');
    }
    const buyer = permit.buyer;
    for (const [name, value] of [['buyer', buyer], ['caller', permit.caller], ['payment.payTo', permit.payment.payTo], ['payment.payToken', permit.payment.payToken], ['fee.feeTo', permit.fee.feeTo]] as const) {
      if (typeof value !== 'string' || !isTronAddress(value)) return fail('invalid_payload', `paymentPermit.${name} is not a TRON address`);
    }
    if (!/^\d+$/.test(String(permit.payment.payAmount)) || !/^\d+$/.test(String(permit.fee.feeAmount))) {
      return fail('invalid_payload', 'paymentPermit amounts must be integer strings', buyer);
    }
    const issued = this.issuedPermits.get(String(permit.meta.paymentId).toLowerCase());
    if (!issued) return fail('permit_unknown_payment_id', 'meta.paymentId was not issued by this server', buyer);
    if (issued.used) return fail('permit_payment_id_used', 'meta.paymentId was already used', buyer);
    if (String(permit.meta.nonce) !== issued.nonce) return fail('permit_nonce_mismatch', 'meta.nonce is not the one issued with this paymentId', buyer);
    if (permit.meta.kind !== 'PAYMENT_ONLY') return fail('invalid_payload', 'meta.kind must be PAYMENT_ONLY', buyer);
    if (permit.payment.payTo !== offer.payTo) return fail('permit_payto_mismatch', `payment.payTo ${permit.payment.payTo} is not payTo ${offer.payTo}`, buyer);
    if (permit.payment.payToken !== offer.asset) return fail('permit_token_mismatch', `payment.payToken is not ${offer.asset}`, buyer);
    if (BigInt(permit.payment.payAmount) < BigInt(offer.amount)) return fail('permit_amount_insufficient', `payment.payAmount is below ${offer.amount}`, buyer);
    const fee = offer.extra.fee as { feeTo: string; feeAmount: string };
    if (permit.fee.feeTo !== fee.feeTo || BigInt(permit.fee.feeAmount) < BigInt(fee.feeAmount)) return fail('permit_fee_mismatch', 'fee does not match the offer', buyer);
    if (permit.caller !== TRON_ZERO_ADDRESS && permit.caller !== MOCK_PAY_TO.facilitator) return fail('permit_caller_mismatch', 'caller must be the zero address or the facilitator', buyer);
    const nowS = Math.floor(this.now() / 1000);
    if (Number(permit.meta.validAfter) > nowS) return fail('permit_not_yet_valid', 'validAfter is in the future', buyer);
    if (Number(permit.meta.validBefore) < nowS) return fail('permit_expired', 'the permit window has ended', buyer);
    const network = tronNetworkName(offer.network)!;
    let typed: TypedDataDefinition;
    try {
      typed = paymentPermitTypedData(permit, TRON_CHAIN_IDS[network], PAYMENT_PERMIT_CONTRACTS[network]);
    } catch (error) {
      return fail('invalid_payload', (error as Error).message, buyer);
    }
    const signer = await recover(typed, signature);
    if (!signer || signer.toLowerCase() !== tronAddressToEvmHex(buyer)) return fail('invalid_exact_permit_signature', 'the signature does not recover to buyer', buyer);
    const funds = this.#checkFunds(offer, buyer);
    if (funds) return funds;
    return {
      ok: true,
      payer: buyer,
      settle: () => {
        if (issued.used) return fail('permit_payment_id_used', 'meta.paymentId was already used', buyer);
        issued.used = true;
        const tx = this.chain.syntheticTransfer({ token: offer.token as ChainToken, from: buyer, to: offer.payTo, amount: BigInt(permit.payment.payAmount), mint: !this.options.requireFunds, label: 'permit' });
        return this.#settled(2, offer, buyer, tx.txid, permit.payment.payAmount, req);
      },
    };
  }

  // ---- TRON exact_gasfree ----

  async #verifyGasFree(payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
    const message = payload.gasfree as GasFreeMessageJson | undefined;
    const signature = payload.signature;
    if (!message || typeof signature !== 'string') return fail('missing_gasfree_payload', 'payload needs gasfree and signature');
    const user = message.user;
    for (const f of ['token', 'serviceProvider', 'user', 'receiver'] as const) {
      if (typeof message[f] !== 'string' || !isTronAddress(message[f])) return fail('missing_gasfree_payload', `gasfree.${f} is not a TRON address`);
    }
    for (const f of ['value', 'maxFee', 'deadline', 'version', 'nonce'] as const) {
      if (!/^\d+$/.test(String(message[f]))) return fail('missing_gasfree_payload', `gasfree.${f} must be an integer string`, user);
    }
    if (message.token !== offer.asset) return fail('gasfree_token_mismatch', `token is not ${offer.asset}`, user);
    if (message.receiver !== offer.payTo) return fail('gasfree_payto_mismatch', `receiver ${message.receiver} is not payTo ${offer.payTo}`, user);
    if (BigInt(message.value) < BigInt(offer.amount)) return fail('gasfree_amount_mismatch', `value is below ${offer.amount}`, user);
    if (message.serviceProvider !== MOCK_PAY_TO.gasfreeProvider) return fail('gasfree_fee_to_mismatch', 'serviceProvider is not a listed provider', user);
    if (BigInt(message.maxFee) < BigInt(this.options.gasfreeTransferFee)) return fail('gasfree_fee_too_low', 'maxFee is below the provider fee', user);
    if (Number(message.deadline) <= Math.floor(this.now() / 1000)) return fail('gasfree_expired', 'the deadline has passed', user);
    if (String(message.version) !== '1') return fail('missing_gasfree_payload', 'version must be 1', user);
    const expectedNonce = this.gasfreeNonces.get(user) ?? 0;
    if (Number(message.nonce) < expectedNonce) return fail('gasfree_nonce_used', `nonce ${message.nonce} was already used (next is ${expectedNonce})`, user);
    if (Number(message.nonce) !== expectedNonce) return fail('gasfree_nonce_mismatch', `nonce must be ${expectedNonce}`, user);
    if (payload.gasfreeAddress !== undefined && payload.gasfreeAddress !== gasFreeAddressOf(user)) {
      return fail('gasfree_address_mismatch', 'gasfreeAddress is not the user’s GasFree address', user);
    }
    const network = tronNetworkName(offer.network)!;
    const signer = await recover(gasFreeTypedData(message, TRON_CHAIN_IDS[network], GASFREE_CONTROLLERS[network]), signature);
    if (!signer || signer.toLowerCase() !== tronAddressToEvmHex(user)) return fail('invalid_gasfree_signature', 'the signature does not recover to user', user);
    const gasfreeAddress = gasFreeAddressOf(user);
    const funds = this.#checkFunds(offer, gasfreeAddress, BigInt(message.maxFee));
    if (funds) return { ...funds, payer: user };
    return {
      ok: true,
      payer: user,
      settle: () => {
        if ((this.gasfreeNonces.get(user) ?? 0) !== Number(message.nonce)) return fail('gasfree_nonce_used', 'nonce already used', user);
        this.gasfreeNonces.set(user, Number(message.nonce) + 1);
        const mint = !this.options.requireFunds;
        const tx = this.chain.syntheticTransfer({ token: offer.token as ChainToken, from: gasfreeAddress, to: offer.payTo, amount: BigInt(message.value), mint, label: 'gasfree' });
        const fee = BigInt(this.options.gasfreeTransferFee);
        if (fee > 0n) this.chain.syntheticTransfer({ token: offer.token as ChainToken, from: gasfreeAddress, to: message.serviceProvider, amount: fee, mint, label: 'gasfree fee' });
        return this.#settled(2, offer, user, tx.txid, message.value, req);
      },
    };
  }

  // ---- TRON exact (signed, not broadcast, TRC-20 transfer) ----

  async #verifyTronExact(payload: Record<string, unknown>, offer: Requirement, req: PriceRequest): Promise<Verification> {
    const signed = payload.signedTransaction as { txID?: string; raw_data_hex?: string; signature?: string[] } | undefined;
    const from = payload.from;
    if (!signed || typeof from !== 'string') return fail('invalid_payload', 'payload needs signedTransaction and from');
    const verified = verifySignedTransaction(signed as never);
    if (!verified.ok) return fail('invalid_exact_tron_payload_signature', `the signed transaction does not verify (${verified.reason})`, from);
    const d = verified.decoded;
    if (d.contractType !== 'TriggerSmartContract' || !d.trc20Transfer) {
      return fail('invalid_exact_tron_payload_transaction', 'not a TRC-20 transfer(address,uint256) call', from);
    }
    if (verified.signer !== from) return fail('invalid_exact_tron_payload_from_mismatch', 'from is not the transaction owner', from);
    if (d.contractAddress !== offer.asset) return fail('invalid_exact_tron_payload_asset_mismatch', `the transfer calls ${d.contractAddress}, not ${offer.asset}`, from);
    if (d.trc20Transfer.to !== offer.payTo) return fail('invalid_exact_tron_payload_recipient_mismatch', `the transfer pays ${d.trc20Transfer.to}, not payTo ${offer.payTo}`, from);
    if (d.trc20Transfer.amount < BigInt(offer.amount)) return fail('invalid_exact_tron_payload_amount', `the transfer amount is below ${offer.amount}`, from);
    const now = this.now();
    if (d.expiration <= now) return fail('invalid_exact_tron_payload_expired', 'the transaction has expired', from);
    if (d.expiration > now + offer.maxTimeoutSeconds * 1000 + 60_000) return fail('invalid_exact_tron_payload_expiration_too_far', 'expiration is beyond maxTimeoutSeconds', from);
    const txid = d.txID.toLowerCase();
    if (this.usedTxIds.has(txid) || this.chain.transactions.has(txid)) return fail('duplicate_settlement', 'this transaction was already used', from);
    if (!this.chain.taposMatches(d.refBlockBytes, d.refBlockHash)) return fail('invalid_exact_tron_payload_reference_block', 'the reference block is not a recent block of this chain', from);
    const funds = this.#checkFunds(offer, from);
    if (funds) return funds;
    return {
      ok: true,
      payer: from,
      settle: () => {
        if (this.usedTxIds.has(txid)) return fail('duplicate_settlement', 'this transaction was already used', from);
        this.usedTxIds.add(txid);
        const result = this.chain.broadcast({ ...(signed as Record<string, unknown>), txID: txid } as never, { fundShortfall: !this.options.requireFunds });
        if (!result.result) return fail('exact_tron_broadcast_failed', `the network rejected the transaction: ${result.code}`, from);
        return this.#settled(2, offer, from, txid, d.trc20Transfer!.amount.toString(), req);
      },
    };
  }

  // ---- shared ----

  #checkFunds(offer: Requirement, holder: string, extra = 0n): Failure | undefined {
    if (!this.options.requireFunds) return undefined;
    const token = offer.token as ChainToken;
    if (this.chain.tokenBalance(holder, token.address) < BigInt(offer.amount) + extra) {
      return fail('insufficient_funds', `${holder} holds less than ${offer.amount} ${token.symbol} on the simulated chain`, holder);
    }
    return undefined;
  }

  #settled(version: 1 | 2, offer: Requirement, payer: string, transaction: string, amount: string, req: PriceRequest) {
    const settlement = { success: true, transaction, network: offer.network, payer, amount };
    this.payments.push({ x402Version: version, scheme: offer.scheme, network: offer.network, asset: offer.asset, amount, payer, payTo: offer.payTo, transaction, resource: req.url, at: this.now() });
    if (this.payments.length > 10_000) this.payments.shift();
    return {
      header: encodeBase64Json(settlement),
      headerName: version === 1 ? HEADERS.X_PAYMENT_RESPONSE : HEADERS.PAYMENT_RESPONSE,
      settlement,
    };
  }

  /** The PAYMENT-RESPONSE header of a failed payment. */
  failureHeader(failure: Failure, version: 1 | 2, network = ''): Record<string, string> {
    const name = version === 1 ? HEADERS.X_PAYMENT_RESPONSE : HEADERS.PAYMENT_RESPONSE;
    return {
      [name]: encodeBase64Json({
        success: false,
        errorReason: failure.reason,
        errorMessage: failure.message,
        transaction: '',
        network: failure.network ?? network,
        ...(failure.payer ? { payer: failure.payer } : {}),
      }),
    };
  }
}

/** Name the payment's network on a failure, now or at settlement. */
function withNetwork(verification: Verification, network: string): Verification {
  if (!verification.ok) return { ...verification, network: verification.network ?? network };
  const settle = verification.settle;
  return {
    ...verification,
    settle: () => {
      const settled = settle();
      return 'ok' in settled && settled.ok === false ? { ...settled, network: settled.network ?? network } : settled;
    },
  };
}

function sameAsset(a: string, b: string): boolean {
  return a.startsWith('0x') || b.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function recipientReason(scheme: string, network: string): string {
  if (!tronNetworkName(network)) return 'invalid_exact_evm_payload_recipient_mismatch';
  return scheme === 'exact_permit' ? 'permit_payto_mismatch' : scheme === 'exact_gasfree' ? 'gasfree_payto_mismatch' : 'invalid_exact_tron_payload_recipient_mismatch';
}

function amountReason(scheme: string, network: string): string {
  if (!tronNetworkName(network)) return 'invalid_exact_evm_payload_authorization_value';
  return scheme === 'exact_permit' ? 'permit_amount_insufficient' : scheme === 'exact_gasfree' ? 'gasfree_amount_mismatch' : 'invalid_exact_tron_payload_amount';
}

async function recover(typed: TypedDataDefinition, signature: string): Promise<string | undefined> {
  const { recoverTypedDataAddress } = await loadViem();
  try {
    // The maintained TRON x402 client sends TIP-712 signatures without the 0x prefix.
    const hex = /^0x/i.test(signature) ? signature : `0x${signature}`;
    return await recoverTypedDataAddress({ ...typed, signature: hex as `0x${string}` } as never);
  } catch {
    return undefined;
  }
}
