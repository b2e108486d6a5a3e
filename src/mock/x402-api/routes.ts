/**
 * The twelve paid handlers of the x402 API (facts in `src/api/x402.ts`), run by the mock's one
 * pipeline (`../http/pipeline.ts`):
 * chaos and rate limits (group `x402`) like every route, then validate the query/body with the
 * SDK's own strict schemas (400 VALIDATION_ERROR, free) -> price it -> no payment header: 402
 * challenge -> verify the payment (402 + reason on failure) -> run the endpoint -> settle ->
 * 200 `{ data }` with PAYMENT-RESPONSE (X-PAYMENT-RESPONSE for v1).
 *
 * Prices: 0.01 USD for the fixed endpoints. Dynamic endpoints cost 0.001 USD plus up to
 * 0.009 USD for the work the request causes, capped at 0.01 USD:
 *   send          0.001 + 0.009 × energy to buy ÷ 130 000 (one transfer to an empty address)
 *   send/batch    0.001 + 0.009 × energy to buy ÷ 1 300 000 (ten such transfers)
 *   swap/execute  0.001 + 0.009 × swap value in USD ÷ 10 000
 * "Energy to buy" is what the sender lacks on the simulated chain for the transfer(s).
 *
 * @module
 */
import {
  BatchSendRequest,
  EstimateRequest,
  InvoiceRequest,
  NetworkQuery,
  RPC_METHODS,
  ReceiveRequest,
  RpcBody,
  SendRequest,
  SwapExecuteRequest,
  SwapQuoteRequest,
  WatchRequest,
  X402AccountParams,
  X402PricesQuery,
  X402_LIMITS,
} from '../../schemas/x402.js';
import { isTronAddress } from '../../utils/address.js';
import { atomicToDecimal, decimalToAtomic, sunToTrx } from '../../utils/units.js';
import { CHAIN_TOKENS, TRC20_ENERGY } from '../chain/accounts.js';
import { CHAIN_PARAMETERS } from '../chain/fees.js';
import { labelAddress } from '../chain/labels.js';
import type { PaidMock } from '../x402/paid.js';
import { MockApiError } from '../shared/errors.js';
import type { CustomHandler } from '../http/table.js';
import type { X402_ENDPOINTS } from '../../api/x402.js';
import { NodeError, nodeCall } from '../chain/node.js';
import { HOUR_SEC, USDT, dynamicPrice, fail, paid } from './paid-handler.js';
import { checkTransfer, energyToBuy, executeTransfer } from './paid-transfers.js';

function bestEnergyPrice(mock: PaidMock): { provider: string | null; price_sun: number } {
  const best = mock.market.select({ resource: 'ENERGY', duration_sec: HOUR_SEC }).best;
  return best ? { provider: best.provider, price_sun: best.price_sun } : { provider: null, price_sun: CHAIN_PARAMETERS.getEnergyFee };
}

function swapUsdMicro(mock: PaidMock, from: string, amount: string): bigint {
  const token = mock.dex.resolve(from);
  if (!token) return 0n;
  if (token.symbol === 'TRX') return mock.dex.quote('TRX', 'USDT', amount).amountOut;
  const atomic = decimalToAtomic(amount, token.decimals);
  return token.decimals >= 6 ? atomic / 10n ** BigInt(token.decimals - 6) : atomic;
}

const iso = (ms: number) => new Date(ms).toISOString();

// ---- the routes ----

/** The twelve paid handlers, keyed by their table ids. */
export const paidHandlers = {
  x402Prices: paid({
    input: (ctx) => ctx.parse(X402PricesQuery, ctx.query),
    run(mock, input) {
      const resources = input.resource ? [input.resource] : (['ENERGY', 'BANDWIDTH'] as const);
      return resources.flatMap((resource) => {
        const selection = mock.market.select({ resource, duration_sec: HOUR_SEC });
        return [selection.best, ...selection.fallbacks]
          .filter((c) => c !== null)
          .map((c) => ({ provider: c!.provider, price_sun: c!.price_sun, available: c!.available }));
      });
    },
  }),
  x402Account: paid({
    input: (ctx) => ctx.parse(X402AccountParams, { address: ctx.params.address }),
    run(mock, { address }) {
      const account = mock.chain.accounts.get(address);
      return {
        address,
        balance: Number(account?.trx ?? 0n),
        energy_limit: account?.energyLimit ?? 0,
        bandwidth_limit: CHAIN_PARAMETERS.getFreeNetLimit,
        // The spec's one unnamed field ("TRC20 token balances"): named `trc20_balances` here.
        trc20_balances: CHAIN_TOKENS.filter((t) => mock.chain.tokenBalance(address, t.address) > 0n).map((t) => ({
          symbol: t.symbol,
          contract: t.address,
          balance: atomicToDecimal(mock.chain.tokenBalance(address, t.address), t.decimals),
          decimals: t.decimals,
        })),
      };
    },
  }),
  x402Estimate: paid({
    input: (ctx) => ctx.parse(EstimateRequest, ctx.body),
    run(mock, input) {
      const best = bestEnergyPrice(mock);
      let energy = 0;
      let bandwidth = 268;
      let extraSun = 0;
      if (input.operation === 'trc20_transfer') {
        const contract = input.contract ?? USDT.address;
        energy = input.to ? mock.chain.trc20TransferEnergy(contract, input.to) : TRC20_ENERGY.empty;
        bandwidth = 345;
      } else if (input.operation === 'trx_transfer') {
        if (input.to && !mock.chain.accounts.has(input.to)) extraSun = CHAIN_PARAMETERS.getCreateAccountFee * 10;
      } else {
        energy = input.contract && mock.chain.token(input.contract) ? 30_000 : 100_000;
        bandwidth = 400;
      }
      const costSun = energy * best.price_sun + bandwidth * CHAIN_PARAMETERS.getTransactionFee + extraSun;
      return {
        energy_needed: energy,
        bandwidth_needed: bandwidth,
        cost_trx: sunToTrx(costSun),
      };
    },
  }),
  x402SwapQuote: paid({
    input: (ctx, mock) => {
      const body = ctx.parse(SwapQuoteRequest, ctx.body);
      checkSwap(mock, body.from, body.to, body.amount);
      return body;
    },
    run(mock, body) {
      const q = mock.dex.quote(body.from, body.to, body.amount);
      return { amount_out: q.amount_out, price_impact: q.price_impact, rate: q.rate };
    },
  }),
  x402Network: paid({
    input: (ctx) => ctx.parse(NetworkQuery, ctx.query),
    run(mock, input) {
      const now = mock.now();
      const interval = CHAIN_PARAMETERS.getMaintenanceTimeInterval;
      const height = mock.chain.height();
      const best = bestEnergyPrice(mock);
      const summary = {
        block_height: height,
        energy_fee_sun: CHAIN_PARAMETERS.getEnergyFee,
        bandwidth_fee_sun: CHAIN_PARAMETERS.getTransactionFee,
        energy_market_price_sun: best.price_sun,
        next_maintenance_time: iso(Math.ceil((now + 1) / interval) * interval),
      };
      if (input.format === 'summary') return summary;
      return {
        ...summary,
        block_id: mock.chain.blockId(height),
        block_time: iso(mock.chain.blockTime(height)),
        free_bandwidth: CHAIN_PARAMETERS.getFreeNetLimit,
        account_creation_fee_sun: CHAIN_PARAMETERS.getCreateAccountFee,
        memo_fee_sun: CHAIN_PARAMETERS.getMemoFee,
        maintenance_interval_ms: interval,
        total_energy_limit: CHAIN_PARAMETERS.getTotalEnergyLimit,
        chain_parameters: Object.entries(CHAIN_PARAMETERS).map(([key, value]) => ({ key, value })),
      };
    },
  }),
  x402Invoice: paid({
    input: (ctx) => ctx.parse(InvoiceRequest, ctx.body),
    run(mock, input, ctx) {
      const id = `inv_${mock.hex(12)}`;
      const payTo = input.pay_to_address ?? labelAddress(`invoice ${id}`);
      const now = mock.now();
      const expires = now + (input.expires_in_seconds ?? X402_LIMITS.INVOICE_EXPIRES_DEFAULT_S) * 1000;
      mock.watchers.invoices.set(id, {
        invoice_id: id,
        amount_usdt: atomicToDecimal(decimalToAtomic(input.amount_usdt, 6, 'amount_usdt'), 6),
        description: input.description ?? null,
        pay_to_address: payTo,
        token_contract: USDT.address,
        created_at: now,
        expires_at: expires,
        status: 'pending',
        paid_total: '0',
        paid_at: null,
        payments: [],
      });
      const invoice = mock.watchers.invoices.get(id)!;
      return {
        invoice_id: id,
        payment_url: `${ctx.origin}/__mock/x402/invoices/${id}`,
        pay_to_address: payTo,
        qr_data: `tron:${payTo}?token=${USDT.address}&amount=${invoice.amount_usdt}`,
      };
    },
  }),
  x402Watch: paid({
    input: (ctx) => ctx.parse(WatchRequest, ctx.body),
    run(mock, input) {
      const id = `wch_${mock.hex(12)}`;
      const now = mock.now();
      const record = {
        watch_id: id,
        address: input.address,
        webhook_url: input.webhook_url,
        event_types: input.event_types ?? ['trc20_incoming'],
        token_contract: input.token_contract ?? null,
        min_amount: input.min_amount ?? null,
        created_at: now,
        expires_at: now + X402_LIMITS.WATCH_DURATION_MS,
        secret: mock.hex(32),
        deliveries: 0,
      };
      mock.watchers.watches.set(id, record);
      return { watch_id: id, expires_at: iso(record.expires_at), status: 'active' };
    },
  }),
  x402Receive: paid({
    input: (ctx, mock) => {
      const body = ctx.parse(ReceiveRequest, ctx.body);
      const token = body.token_contract ? mock.chain.token(body.token_contract) : USDT;
      if (!token) throw fail(400, 'VALIDATION_ERROR', 'token_contract is not a supported token', { field: 'token_contract' });
      return { ...body, token };
    },
    run(mock, input) {
      const id = `pay_${mock.hex(12)}`;
      const now = mock.now();
      const record = {
        payment_id: id,
        watch_address: labelAddress(`receive ${id}`),
        expected_amount: input.expected_amount,
        token_contract: input.token.address,
        tolerance_pct: input.tolerance_pct ?? 0,
        webhook_url: input.webhook_url ?? null,
        created_at: now,
        expires_at: now + (input.timeout_seconds ?? X402_LIMITS.RECEIVE_TIMEOUT_DEFAULT_S) * 1000,
        secret: mock.hex(32),
        status: 'waiting' as const,
        payment: null,
      };
      mock.watchers.receives.set(id, record);
      return { payment_id: id, watch_address: record.watch_address, expires_at: iso(record.expires_at) };
    },
  }),
  x402Send: paid({
    input: (ctx, mock) => {
      const body = ctx.parse(SendRequest, ctx.body);
      return { body, transfer: checkTransfer(mock, body.signed_tx, body.to, body.amount_usdt, 'signed_tx', true) };
    },
    price: (mock, input) => dynamicPrice(energyToBuy(mock, [input.transfer]), 130_000n),
    run(mock, input) {
      const result = executeTransfer(mock, input.transfer);
      if (!result.ok) throw fail(502, 'BROADCAST_FAILED', `The network rejected the transaction: ${result.code}`, { reason: result.code });
      return { txid: result.txid, status: result.status, resources: result.resources };
    },
  }),
  x402SendBatch: paid({
    input: (ctx, mock) => {
      const body = ctx.parse(BatchSendRequest, ctx.body);
      return body.transfers.map((t, i) => {
        try {
          return { index: i, to: t.to, amount: t.amount, transfer: checkTransfer(mock, t.signed_tx, t.to, t.amount, `transfers.${i}.signed_tx`, false) };
        } catch (error) {
          if (error instanceof MockApiError)
            return { index: i, to: t.to, amount: t.amount, error: error.message, reason: String(error.details?.reason ?? 'invalid') };
          throw error;
        }
      });
    },
    price: (mock, items) =>
      dynamicPrice(
        energyToBuy(
          mock,
          items.flatMap((i) => ('transfer' in i && i.transfer ? [i.transfer] : [])),
        ),
        1_300_000n,
      ),
    run(mock, items) {
      const results = items.map((item) => {
        if (!('transfer' in item) || !item.transfer)
          return { index: item.index, to: item.to, amount: item.amount, status: 'failed', error: item.error, reason: item.reason };
        const r = executeTransfer(mock, item.transfer);
        if (!r.ok) return { index: item.index, to: item.to, amount: item.amount, status: 'failed', error: r.message, reason: r.code };
        return { index: item.index, to: item.to, amount: item.amount, txid: r.txid, status: r.status, resources: r.resources };
      });
      const succeeded = results.filter((r) => r.status === 'confirmed').length;
      return { total: results.length, succeeded, failed: results.length - succeeded, results };
    },
  }),
  x402SwapExecute: paid({
    input: (ctx, mock) => {
      const body = ctx.parse(SwapExecuteRequest, ctx.body);
      checkSwap(mock, body.from_token, body.to_token, body.amount);
      return body;
    },
    price: (mock, body) => dynamicPrice(swapUsdMicro(mock, body.from_token, body.amount), 10_000n * 1_000_000n),
    run(mock, body, ctx) {
      const quoted = mock.dex.quote(body.from_token, body.to_token, body.amount);
      const slippage = body.slippage_pct ?? X402_LIMITS.SWAP_SLIPPAGE_DEFAULT_PCT;
      const minOut = (quoted.amountOut * BigInt(Math.round((100 - slippage) * 1000))) / 100_000n;
      const done = mock.dex.execute(body.from_token, body.to_token, body.amount);
      if (done.amountOut < minOut) throw fail(409, 'SLIPPAGE_EXCEEDED', 'Price moved beyond slippage_pct');
      const owner = isTronAddress(ctx.payer) ? ctx.payer : labelAddress('dex router');
      const tx = mock.chain.recordCall(owner, `swap ${body.from_token}->${body.to_token} ${body.amount}`, 120_000);
      return { txid: tx.txid, amount_out: done.amount_out };
    },
  }),
  x402Rpc: paid({
    input: (ctx) => {
      // `wallet/getnowblock` as two segments or one (`wallet%2Fgetnowblock`); `wallet/` may be left out.
      const raw = ctx.params.method ?? '';
      const method = raw.includes('/') ? raw : `wallet/${raw}`;
      if (!(RPC_METHODS as readonly string[]).includes(method)) {
        throw fail(400, 'VALIDATION_ERROR', `method must be one of ${RPC_METHODS.join(', ')}`, { field: 'method' });
      }
      return { method, body: ctx.parse(RpcBody, ctx.body) };
    },
    run(mock, input) {
      try {
        return nodeCall(mock.chain, input.method, input.body);
      } catch (error) {
        if (error instanceof NodeError) throw fail(400, 'VALIDATION_ERROR', error.message);
        throw error;
      }
    },
  }),
} satisfies { readonly [K in keyof typeof X402_ENDPOINTS]: CustomHandler };

function checkSwap(mock: PaidMock, from: string, to: string, amount: string): void {
  try {
    mock.dex.quote(from, to, amount);
  } catch (error) {
    throw fail(400, 'VALIDATION_ERROR', (error as Error).message, { field: 'amount' });
  }
}
