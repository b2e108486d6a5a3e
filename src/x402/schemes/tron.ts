/**
 * @x402/core SchemeNetworkClients for TRON, registered on `tron:*`:
 *
 * - `exact_permit`  BankofAI PaymentPermit: TIP-712 PaymentPermitDetails over the server's
 *                   `extensions.paymentPermitContext.meta` (paymentId + nonce issued per challenge).
 * - `exact_gasfree` GasFreeController PermitTransfer; nonce, GasFree address, provider and fee
 *                   come from the GasFree relayer. The fee is checked against maxPayment/budget
 *                   before signing.
 * - `exact`         the x402 foundation's TRON spec: a TRC-20 `transfer(payTo, amount)` signed
 *                   locally and NOT broadcast; the facilitator broadcasts it. Needs a recent block
 *                   as TAPOS reference (from a full node, or the TronWeb instance).
 *
 * None of them ever sends an approve or any other transaction.
 * @module
 */
import { buildTrc20Transfer } from '../../protocol/tron-transaction.js';
import { isTronAddress } from '../../utils/address.js';
import {
  GASFREE_CONTROLLERS,
  GASFREE_RELAYERS,
  PAYMENT_PERMIT_CONTRACTS,
  TRON_CHAIN_IDS,
  TRON_FULL_NODES,
  TRON_ZERO_ADDRESS,
  type TronNetworkName,
  type TronScheme,
  findToken,
  tronNetworkName,
} from '../../protocol/networks.js';
import { type GasFreeMessageJson, type PaymentPermitJson, gasFreeTypedData, paymentPermitTypedData } from '../../protocol/tip712.js';
import { nowBlockUrl, refBlockOf } from '../transfers.js';
import type { PaymentContext, SchemeClientLike, TronSigner } from './types.js';

/** One URL for every TRON network, or one per network name (`mainnet`, `nile`, `shasta`). */
export type PerNetwork = string | Partial<Record<TronNetworkName, string>>;

/** Where TRON payments get their reference block and relayer, and which contracts they sign for. */
export interface TronSchemeOptions {
  /** Full node for the `exact` scheme's reference block. Default: TronGrid of the network. */
  fullNode?: PerNetwork;
  /** GasFree relayer base URL (…/api/v1/… below it). Default: BankofAI's relayer of the network. */
  gasfreeRelayer?: PerNetwork;
  /** PaymentPermit contract override per network (TIP-712 verifyingContract). */
  paymentPermitContracts?: Partial<Record<TronNetworkName, string>>;
  /** GasFreeController override per network. */
  gasfreeControllers?: Partial<Record<TronNetworkName, string>>;
  /**
   * Lifetime of an `exact` transfer, seconds, capped by the offer's maxTimeoutSeconds and the
   * client's maxValiditySeconds.
   * @default 60
   */
  exactExpirationSeconds?: number;
}

type Requirements = Parameters<SchemeClientLike['createPaymentPayload']>[1];

function pick(value: PerNetwork | undefined, network: TronNetworkName, fallback: string): string {
  const chosen = typeof value === 'string' ? value : value?.[network];
  return (chosen ?? fallback).replace(/\/+$/, '');
}

function networkOf(requirements: Requirements): TronNetworkName {
  const name = tronNetworkName(requirements.network);
  if (!name) throw new Error(`not a TRON network: ${requirements.network}`);
  return name;
}

function findDefaultAsset(asset: string, network: string) {
  const token = findToken(asset, network);
  return token ? { asset: token.address, decimals: token.decimals, symbol: token.symbol } : undefined;
}

type CreatePayload = SchemeClientLike['createPaymentPayload'];

/** A scheme client for `tron:*`: `create` gets the TRON network the offer is on, whatever its spelling. */
function schemeClient(
  scheme: TronScheme,
  create: (x402Version: number, requirements: Requirements, network: TronNetworkName, context: Parameters<CreatePayload>[2]) => ReturnType<CreatePayload>,
): SchemeClientLike {
  return {
    scheme,
    findDefaultAsset,
    createPaymentPayload: async (x402Version, requirements, context) => create(x402Version, requirements, networkOf(requirements), context),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// ---- exact_permit ----

interface PermitMeta {
  kind: string;
  paymentId: string;
  nonce: string;
  validAfter: number;
  validBefore: number;
}

function readPermitMeta(extensions: Record<string, unknown> | undefined): PermitMeta {
  const ctx = extensions?.paymentPermitContext as { meta?: Record<string, unknown> } | undefined;
  const meta = ctx?.meta;
  if (!meta) throw new Error('exact_permit needs extensions.paymentPermitContext.meta from the server');
  const kind = String(meta.kind ?? 'PAYMENT_ONLY');
  if (kind !== 'PAYMENT_ONLY') throw new Error(`exact_permit kind ${kind} is not supported (only PAYMENT_ONLY)`);
  const paymentId = String(meta.paymentId ?? '');
  if (!/^0x[0-9a-fA-F]{32}$/.test(paymentId)) throw new Error('paymentPermitContext.meta.paymentId must be 16 bytes of hex');
  const nonce = String(meta.nonce ?? '');
  if (!/^\d+$/.test(nonce)) throw new Error('paymentPermitContext.meta.nonce must be a decimal integer');
  const validAfter = Number(meta.validAfter ?? 0);
  const validBefore = Number(meta.validBefore);
  if (!Number.isSafeInteger(validAfter) || !Number.isSafeInteger(validBefore)) throw new Error('paymentPermitContext.meta validity must be Unix seconds');
  return { kind, paymentId, nonce, validAfter, validBefore };
}

function exactPermitClient(signer: TronSigner, options: TronSchemeOptions, payment: PaymentContext): SchemeClientLike {
  return schemeClient('exact_permit', async (x402Version, requirements, network, context) => {
    const meta = readPermitMeta(context?.extensions);
    const now = nowSeconds();
    if (meta.validBefore <= now) throw new Error('the server issued an exact_permit window that has already ended');
    // The window the server issued, shortened to the offer's maxTimeoutSeconds (already capped
    // by the client's maxValiditySeconds): a permit is never signed for longer than that.
    const validBefore = Math.min(meta.validBefore, now + requirements.maxTimeoutSeconds);
    if (meta.validAfter >= validBefore) {
      throw payment.refuse(`the exact_permit window opens at ${meta.validAfter}, after the ${requirements.maxTimeoutSeconds} s the client signs for`);
    }
    const fee = (requirements.extra?.fee ?? {}) as { feeTo?: string; feeAmount?: string; caller?: string };
    const feeTo = fee.feeTo ?? TRON_ZERO_ADDRESS;
    const caller = fee.caller ?? TRON_ZERO_ADDRESS;
    for (const [name, value] of [
      ['payTo', requirements.payTo],
      ['asset', requirements.asset],
      ['fee.feeTo', feeTo],
      ['fee.caller', caller],
    ] as const) {
      if (!isTronAddress(value)) throw new Error(`exact_permit ${name} is not a TRON address: ${value}`);
    }
    const permit: PaymentPermitJson = {
      meta: { kind: meta.kind, paymentId: meta.paymentId.toLowerCase(), nonce: meta.nonce, validAfter: meta.validAfter, validBefore },
      buyer: signer.address,
      caller,
      payment: { payToken: requirements.asset, payAmount: requirements.amount, payTo: requirements.payTo },
      fee: { feeTo, feeAmount: fee.feeAmount ?? '0' },
    };
    const contract = options.paymentPermitContracts?.[network] ?? PAYMENT_PERMIT_CONTRACTS[network];
    const signature = await signer.signTypedData(paymentPermitTypedData(permit, TRON_CHAIN_IDS[network], contract));
    return { x402Version, payload: { signature, paymentPermit: permit } };
  });
}

// ---- exact_gasfree ----

interface RelayerEnvelope<T> {
  code?: number;
  message?: string | null;
  reason?: string | null;
  data?: T | null;
}

interface GasFreeAccount {
  gasFreeAddress: string;
  active: boolean;
  allowSubmit?: boolean;
  nonce: number | string;
  assets?: Array<{ tokenAddress: string; transferFee?: number | string; activateFee?: number | string }>;
}

function unwrapRelayer<T>(body: unknown, what: string): T {
  const envelope = body as RelayerEnvelope<T>;
  if (!envelope || envelope.code !== 200 || envelope.data == null) {
    throw new Error(`GasFree relayer ${what}: ${envelope?.message || envelope?.reason || 'unexpected answer'}`);
  }
  return envelope.data;
}

const atomicString = (v: unknown) => {
  const s = String(v ?? '0');
  if (!/^\d+$/.test(s)) throw new Error(`GasFree relayer sent a non-integer fee: ${s}`);
  return BigInt(s);
};

function exactGasFreeClient(signer: TronSigner, options: TronSchemeOptions, context: PaymentContext): SchemeClientLike {
  return schemeClient('exact_gasfree', async (x402Version, requirements, network) => {
    const relayer = pick(options.gasfreeRelayer, network, GASFREE_RELAYERS[network]);
    const account = unwrapRelayer<GasFreeAccount>(await context.requestJson(`${relayer}/api/v1/address/${signer.address}`), 'account lookup');
    if (!isTronAddress(account.gasFreeAddress)) throw new Error('GasFree relayer sent no valid GasFree address');
    if (!account.active && account.allowSubmit === false) {
      throw new Error(`GasFree account ${account.gasFreeAddress} is not activated and cannot submit`);
    }
    const fee = (requirements.extra?.fee ?? undefined) as { feeTo?: string; feeAmount?: string } | undefined;
    let provider = fee?.feeTo;
    if (!provider) {
      const providers = unwrapRelayer<{ providers: Array<{ address: string }> }>(
        await context.requestJson(`${relayer}/api/v1/config/provider/all`),
        'provider list',
      ).providers;
      provider = providers?.find((p) => isTronAddress(p.address))?.address;
      if (!provider) throw new Error('GasFree relayer lists no service provider');
    }
    const asset = account.assets?.find((a) => a.tokenAddress === requirements.asset);
    const transferFee = atomicString(asset?.transferFee);
    const activateFee = account.active ? 0n : atomicString(asset?.activateFee);
    const facilitatorFee = atomicString(fee?.feeAmount);
    let maxFee = (transferFee > facilitatorFee ? transferFee : facilitatorFee) + activateFee;
    if (!asset && !fee) {
      // Nothing known: GasFree's reference clients fall back to one whole token. The spend
      // check below refuses that unless the caller's limits allow it.
      const token = findToken(requirements.asset, requirements.network);
      maxFee = 10n ** BigInt(token?.decimals ?? 6);
    }
    // The fee is money too: amount + maxFee must fit maxPayment and the budget.
    context.authorizeFee(requirements, maxFee);

    // The relayer accepts deadlines up to 595 s (mainnet) or 3595 s ahead; within that, the
    // offer's maxTimeoutSeconds (already capped by the client's maxValiditySeconds).
    const maxDelta = network === 'mainnet' ? 595 : 3595;
    const deadline = nowSeconds() + Math.min(requirements.maxTimeoutSeconds, maxDelta);
    const message: GasFreeMessageJson = {
      token: requirements.asset,
      serviceProvider: provider,
      user: signer.address,
      receiver: requirements.payTo,
      value: requirements.amount,
      maxFee: maxFee.toString(),
      deadline: String(deadline),
      version: '1',
      nonce: String(account.nonce),
    };
    const controller = options.gasfreeControllers?.[network] ?? GASFREE_CONTROLLERS[network];
    const signature = await signer.signTypedData(gasFreeTypedData(message, TRON_CHAIN_IDS[network], controller));
    return { x402Version, payload: { signature, gasfreeAddress: account.gasFreeAddress, gasfree: message } };
  });
}

// ---- exact (signed TRC-20 transfer, not broadcast) ----

async function referenceBlock(signer: TronSigner, options: TronSchemeOptions, network: TronNetworkName, context: PaymentContext) {
  if (signer.tronWeb?.trx.getCurrentBlock) return refBlockOf(await signer.tronWeb.trx.getCurrentBlock(), 'TronWeb');
  const node = pick(options.fullNode, network, TRON_FULL_NODES[network]);
  return refBlockOf(await context.requestJson(nowBlockUrl(node), { method: 'POST', body: '{}' }), node);
}

function exactTransferClient(signer: TronSigner, options: TronSchemeOptions, context: PaymentContext): SchemeClientLike {
  return schemeClient('exact', async (x402Version, requirements, network) => {
    const refBlock = await referenceBlock(signer, options, network, context);
    // Never longer than the offer's maxTimeoutSeconds (already capped by the client's maxValiditySeconds).
    const lifetime = Math.max(1, Math.min(options.exactExpirationSeconds ?? 60, requirements.maxTimeoutSeconds));
    const unsigned = buildTrc20Transfer({
      from: signer.address,
      contract: requirements.asset,
      to: requirements.payTo,
      amount: BigInt(requirements.amount),
      refBlock,
      expirationMs: lifetime * 1000,
    });
    const signed = await signer.signTransaction(unsigned);
    return {
      x402Version,
      payload: {
        signedTransaction: { txID: signed.txID, raw_data: signed.raw_data, raw_data_hex: signed.raw_data_hex, signature: signed.signature },
        from: signer.address,
      },
    };
  });
}

export function createTronSchemeClients(
  signer: TronSigner,
  schemes: readonly TronScheme[],
  options: TronSchemeOptions,
  context: PaymentContext,
): SchemeClientLike[] {
  return schemes.map((scheme) => {
    switch (scheme) {
      case 'exact_permit':
        return exactPermitClient(signer, options, context);
      case 'exact_gasfree':
        return exactGasFreeClient(signer, options, context);
      case 'exact':
        return exactTransferClient(signer, options, context);
    }
  });
}
