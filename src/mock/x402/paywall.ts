/**
 * The mock's x402 facilitator, offline: builds 402 challenges (v2 in the PAYMENT-REQUIRED header
 * and the body; v1 in the body only), verifies payment payloads without any chain access but
 * the simulated one (signature recovery, scheme, network, asset, payTo, amount, validity window,
 * nonce / paymentId / txID used once) and settles them (records the nonce, moves the tokens on
 * the simulated TRON chain, returns a settlement response). This file holds the offers, the
 * challenge and the dispatch by scheme; each scheme's checks are in `verify-evm.ts` and
 * `verify-tron.ts`, the shared terms in `paywall-terms.ts`.
 *
 * Error reasons follow the reference facilitators where they have one
 * (`invalid_exact_evm_payload_signature`, `…_recipient_mismatch`, `…_valid_before`,
 * `duplicate_settlement`, GasFree's `gasfree_*`), and name the failed check otherwise.
 * @module
 */
import { PaymentPayloadV1, PaymentPayloadV2 } from '../../schemas/x402.js';
import { decodeBase64Json, encodeBase64Json, HEADERS } from '../../protocol/codec.js';
import { TRON_SCHEMES, normaliseNetwork, tronNetworkName } from '../../protocol/networks.js';
import type { SimulatedChain } from '../chain/chain.js';
import { CHAIN_TOKENS } from '../chain/accounts.js';
import type { ChainToken } from '../chain/types.js';
import type { HeaderReader } from '../shared/headers.js';
import {
  BASE_USDC,
  type Failure,
  type IssuedPermit,
  MOCK_PAY_TO,
  type PaywallOptions,
  type PaywallState,
  type PriceRequest,
  type Requirement,
  type SettledPayment,
  type SettledResponse,
  type Verification,
  fail,
  microUsdToAtomic,
} from './paywall-terms.js';
import { verifyEvm } from './verify-evm.js';
import { verifyGasFree, verifyPermit, verifyTronExact } from './verify-tron.js';

/** The mock's x402 facilitator: offers, 402 challenges, verification by scheme, settlement. */
export class Paywall implements PaywallState {
  options: Required<PaywallOptions>;
  readonly issuedPermits = new Map<string, IssuedPermit>();
  readonly usedEvmNonces = new Set<string>();
  readonly usedTxIds = new Set<string>();
  readonly gasfreeNonces = new Map<string, number>();
  readonly #quotes = new Map<string, { amounts: Set<string>; at: number }>();
  readonly payments: SettledPayment[] = [];

  constructor(
    readonly chain: SimulatedChain,
    readonly now: () => number,
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
      if (a.scheme === 'exact_permit') return verifyPermit(this, payload.payload, offer, req);
      if (a.scheme === 'exact_gasfree') return verifyGasFree(this, payload.payload, offer, req);
      return verifyTronExact(this, payload.payload, offer, req);
    }
    return verifyEvm(this, 2, payload.payload, offer, req);
  }

  async #verifyV1(payload: ReturnType<typeof PaymentPayloadV1.parse>, req: PriceRequest): Promise<Verification> {
    const matched = this.#match(1, payload.scheme, payload.network, BASE_USDC.address, req);
    if (!Array.isArray(matched)) return matched;
    // v1 has no `accepted`: the authorization must cover one of the prices quoted for this
    // request (the cheapest is checked; value >= maxAmountRequired is the v1 rule).
    const offer = matched.reduce((low, r) => (BigInt(r.amount) < BigInt(low.amount) ? r : low), matched[0]!);
    return verifyEvm(this, 1, payload.payload, offer, req);
  }

  // ---- shared ----

  /** With `requireFunds`: a failure when `holder` holds less than the offer (plus `extra`). */
  checkFunds(offer: Requirement, holder: string, extra = 0n): Failure | undefined {
    if (!this.options.requireFunds) return undefined;
    const token = offer.token as ChainToken;
    if (this.chain.tokenBalance(holder, token.address) < BigInt(offer.amount) + extra) {
      return fail('insufficient_funds', `${holder} holds less than ${offer.amount} ${token.symbol} on the simulated chain`, holder);
    }
    return undefined;
  }

  /** Record a settled payment (the last 10 000 are kept) and build its response header. */
  settled(version: 1 | 2, offer: Requirement, payer: string, transaction: string, amount: string, req: PriceRequest): SettledResponse {
    const settlement = { success: true, transaction, network: offer.network, payer, amount };
    this.payments.push({
      x402Version: version,
      scheme: offer.scheme,
      network: offer.network,
      asset: offer.asset,
      amount,
      payer,
      payTo: offer.payTo,
      transaction,
      resource: req.url,
      at: this.now(),
    });
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
  return scheme === 'exact_permit'
    ? 'permit_payto_mismatch'
    : scheme === 'exact_gasfree'
      ? 'gasfree_payto_mismatch'
      : 'invalid_exact_tron_payload_recipient_mismatch';
}

function amountReason(scheme: string, network: string): string {
  if (!tronNetworkName(network)) return 'invalid_exact_evm_payload_authorization_value';
  return scheme === 'exact_permit'
    ? 'permit_amount_insufficient'
    : scheme === 'exact_gasfree'
      ? 'gasfree_amount_mismatch'
      : 'invalid_exact_tron_payload_amount';
}
