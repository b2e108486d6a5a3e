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
import type { PaymentContext, SchemeClientLike, TronSigner } from './types.js';

type PerNetwork = string | Partial<Record<TronNetworkName, string>>;

export interface TronSchemeOptions {
  /** Full node for the `exact` scheme's reference block. Default: TronGrid of the network. */
  fullNode?: PerNetwork;
  /** GasFree relayer base URL (…/api/v1/… below it). Default: BankofAI's relayer of the network. */
  gasfreeRelayer?: PerNetwork;
  /** PaymentPermit contract override per network (TIP-712 verifyingContract). */
  paymentPermitContracts?: Partial<Record<TronNetworkName, string>>;
  /** GasFreeController override per network. */
  gasfreeControllers?: Partial<Record<TronNetworkName, string>>;
  /** Lifetime of an `exact` transfer, seconds (capped by the offer's maxTimeoutSeconds). Default 60. */
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

async function getJson(context: PaymentContext, url: string, init?: RequestInit): Promise<unknown> {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  const response = await context.fetch(url, { ...init, signal, headers: { accept: 'application/json', ...(init?.body ? { 'content-type': 'application/json' } : {}) } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${new URL(url).pathname} did not answer JSON`);
  }
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

function exactPermitClient(signer: TronSigner, options: TronSchemeOptions): SchemeClientLike {
  return {
    scheme: 'exact_permit',
    findDefaultAsset,
    async createPaymentPayload(x402Version, requirements, context) {
      const network = networkOf(requirements);
      const meta = readPermitMeta(context?.extensions);
      if (meta.validBefore <= nowSeconds()) throw new Error('the server issued an exact_permit window that has already ended');
      const fee = (requirements.extra?.fee ?? {}) as { feeTo?: string; feeAmount?: string; caller?: string };
      const feeTo = fee.feeTo ?? TRON_ZERO_ADDRESS;
      const caller = fee.caller ?? TRON_ZERO_ADDRESS;
      for (const [name, value] of [['payTo', requirements.payTo], ['asset', requirements.asset], ['fee.feeTo', feeTo], ['fee.caller', caller]] as const) {
        if (!isTronAddress(value)) throw new Error(`exact_permit ${name} is not a TRON address: ${value}`);
      }
      const permit: PaymentPermitJson = {
        meta: { kind: meta.kind, paymentId: meta.paymentId.toLowerCase(), nonce: meta.nonce, validAfter: meta.validAfter, validBefore: meta.validBefore },
        buyer: signer.address,
        caller,
        payment: { payToken: requirements.asset, payAmount: requirements.amount, payTo: requirements.payTo },
        fee: { feeTo, feeAmount: fee.feeAmount ?? '0' },
      };
      const contract = options.paymentPermitContracts?.[network] ?? PAYMENT_PERMIT_CONTRACTS[network];
      const signature = await signer.signTypedData(paymentPermitTypedData(permit, TRON_CHAIN_IDS[network], contract));
      return { x402Version, payload: { signature, paymentPermit: permit } };
    },
  };
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
  return {
    scheme: 'exact_gasfree',
    findDefaultAsset,
    async createPaymentPayload(x402Version, requirements) {
      const network = networkOf(requirements);
      const relayer = pick(options.gasfreeRelayer, network, GASFREE_RELAYERS[network]);
      const account = unwrapRelayer<GasFreeAccount>(
        await getJson(context, `${relayer}/api/v1/address/${signer.address}`),
        'account lookup',
      );
      if (!isTronAddress(account.gasFreeAddress)) throw new Error('GasFree relayer sent no valid GasFree address');
      if (!account.active && account.allowSubmit === false) {
        throw new Error(`GasFree account ${account.gasFreeAddress} is not activated and cannot submit`);
      }
      const fee = (requirements.extra?.fee ?? undefined) as { feeTo?: string; feeAmount?: string } | undefined;
      let provider = fee?.feeTo;
      if (!provider) {
        const providers = unwrapRelayer<{ providers: Array<{ address: string }> }>(
          await getJson(context, `${relayer}/api/v1/config/provider/all`),
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

      const now = nowSeconds();
      const maxDelta = network === 'mainnet' ? 595 : 3595;
      const wanted = Math.max(requirements.maxTimeoutSeconds || 0, 60);
      const deadline = now + Math.min(Math.max(wanted, 55), maxDelta);
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
    },
  };
}

// ---- exact (signed TRC-20 transfer, not broadcast) ----

interface NowBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}

async function referenceBlock(signer: TronSigner, options: TronSchemeOptions, network: TronNetworkName, context: PaymentContext) {
  let block: NowBlock;
  if (signer.tronWeb?.trx.getCurrentBlock) {
    block = (await signer.tronWeb.trx.getCurrentBlock()) as NowBlock;
  } else {
    const node = pick(options.fullNode, network, TRON_FULL_NODES[network]);
    block = (await getJson(context, `${node}/wallet/getnowblock`, { method: 'POST', body: '{}' })) as NowBlock;
  }
  const number = block?.block_header?.raw_data?.number;
  const hash = block?.blockID;
  if (typeof number !== 'number' || typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash)) {
    throw new Error('the full node sent no usable block for the transaction reference');
  }
  return { number, hash };
}

function exactTransferClient(signer: TronSigner, options: TronSchemeOptions, context: PaymentContext): SchemeClientLike {
  return {
    scheme: 'exact',
    findDefaultAsset,
    async createPaymentPayload(x402Version, requirements) {
      const network = networkOf(requirements);
      const refBlock = await referenceBlock(signer, options, network, context);
      const lifetime = Math.max(10, Math.min(options.exactExpirationSeconds ?? 60, requirements.maxTimeoutSeconds || 60));
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
    },
  };
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
        return exactPermitClient(signer, options);
      case 'exact_gasfree':
        return exactGasFreeClient(signer, options, context);
      case 'exact':
        return exactTransferClient(signer, options, context);
    }
  });
}
