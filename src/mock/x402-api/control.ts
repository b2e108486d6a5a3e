/**
 * The paid side's test helpers and its simulated GasFree relayer, on the mock's pipeline:
 * `/__mock/chain/*` (land transfers, fund addresses, read accounts), `/__mock/x402/*` (paywall
 * config, payments, invoices, receives, watches) and `/__mock/gasfree/api/v1/*` (the relayer's
 * BankofAI API shape). Not part of the service: no chaos, no rate limit; every body is validated
 * and a bad one is a 400 VALIDATION_ERROR envelope.
 *
 * @module
 */
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import { CHAIN_TOKENS } from '../chain/accounts.js';
import { MockApiError } from '../shared/errors.js';
import type { RouteContext, RouteDef, RouteResult } from '../http/route.js';
import type { PlainHandlers } from '../http/table.js';
import type { CONTROL_ENDPOINTS } from '../control-endpoints.js';
import { MOCK_PAY_TO, gasFreeAddressOf } from '../x402/paywall-terms.js';
import { isTronAddress } from '../../utils/address.js';

const helper = { group: null, auth: 'public', helper: true, raw: true, statuses: { VALIDATION_ERROR: 400 } } as const;

const ok = (body: unknown): RouteResult => ({ status: 200, body });
const invalid = (message: string, field: string) => new MockApiError('VALIDATION_ERROR', message, { field }, 400);

function relayerAddress(ctx: RouteContext): RouteResult {
  const mock = ctx.state.paid;
  const user = ctx.params.user ?? '';
  if (!isTronAddress(user)) return { status: 400, body: { code: 400, reason: 'InvalidAddress', message: 'not a TRON address', data: null } };
  const gasFreeAddress = gasFreeAddressOf(user);
  const fee = mock.paywall.options.gasfreeTransferFee;
  return ok({
    code: 200,
    reason: null,
    message: null,
    data: {
      accountAddress: user,
      gasFreeAddress,
      active: true,
      allowSubmit: true,
      nonce: mock.paywall.gasfreeNonces.get(user) ?? 0,
      assets: CHAIN_TOKENS.map((t) => ({
        tokenAddress: t.address,
        tokenSymbol: t.symbol,
        activateFee: 0,
        transferFee: fee,
        decimal: t.decimals,
        frozen: 0,
        balance: mock.chain.tokenBalance(gasFreeAddress, t.address).toString(),
      })),
    },
  });
}

const PROVIDERS = {
  code: 200,
  reason: null,
  message: null,
  data: {
    providers: [
      {
        address: MOCK_PAY_TO.gasfreeProvider,
        name: 'trx-rent mock provider',
        icon: '',
        website: '',
        config: { maxPendingTransfer: 10, minDeadlineDuration: 60, maxDeadlineDuration: 600, defaultDeadlineDuration: 180 },
      },
    ],
  },
};

function record<T>(found: T | undefined, what: string, id: string): T {
  if (found === undefined) throw new MockApiError('NOT_FOUND', `No ${what} ${id}`);
  return found;
}

/** The simulated GasFree relayer (another service's API, imitated: not in the control table). */
export const relayerRoutes: RouteDef[] = [
  { ...helper, method: 'GET', path: '/__mock/gasfree/api/v1/address/:user', handle: relayerAddress },
  { ...helper, method: 'GET', path: '/__mock/gasfree/api/v1/config/provider/all', handle: () => ok(PROVIDERS) },
];

type PaidControl = Pick<
  typeof CONTROL_ENDPOINTS,
  | 'mockChainTransfer'
  | 'mockChainFund'
  | 'mockFundAddress'
  | 'mockChainAccount'
  | 'mockChainUsage'
  | 'mockChainUsageGet'
  | 'mockChainDeposits'
  | 'mockChainDepositsGet'
  | 'mockChainDepositsStop'
  | 'mockX402Config'
  | 'mockSetX402Config'
  | 'mockX402Payments'
  | 'mockInvoice'
  | 'mockReceive'
  | 'mockWatch'
>;

/** The paid side's /__mock/ control handlers (facts and body schemas in `../control-endpoints.ts`). */
export const paidControlHandlers = {
  /**
   * Land a TRC-20 transfer on the simulated chain (watch/receive/invoice detection runs at once).
   * Body: { to, amount: '1.5', token?: 'USDT' | symbol | contract, from? }; without `from`, the
   * faucet pays; with it, `from` must hold the amount.
   */
  mockChainTransfer: {
    handle(ctx) {
      const { chain } = ctx.state;
      const body = ctx.input.body;
      const token = chain.token(body.token ?? 'USDT');
      if (!token) throw invalid('token must be USDT, USDC, USDD or one of their contracts', 'token');
      let amount: bigint;
      try {
        amount = decimalToAtomic(body.amount, token.decimals, 'amount');
      } catch (error) {
        throw invalid((error as Error).message, 'amount');
      }
      if (amount <= 0n) throw invalid('amount must be positive', 'amount');
      if (body.from !== undefined && chain.tokenBalance(body.from, token.address) < amount)
        throw invalid(`${body.from} holds less than ${body.amount} ${token.symbol}`, 'from');
      const tx = chain.syntheticTransfer({ token, to: body.to, amount, ...(body.from ? { from: body.from } : {}), label: 'helper' });
      ctx.state.tick();
      return ok({
        txid: tx.txid,
        block_number: tx.block,
        from: tx.owner,
        to: body.to,
        token: token.symbol,
        token_contract: token.address,
        amount: atomicToDecimal(amount, token.decimals),
      });
    },
  },
  /** Give an address TRX: { address, amount_sun }. */
  mockChainFund: {
    handle(ctx) {
      const body = ctx.input.body;
      ctx.state.chain.fundTrx(body.address, BigInt(body.amount_sun));
      return ok({ address: body.address, balance_sun: Number(ctx.state.chain.trxBalance(body.address)) });
    },
  },
  /** Fund an address: { address, trx?, usdt? } in whole units (decimal strings); TRX first, so the account exists. */
  mockFundAddress: {
    handle(ctx) {
      const { chain } = ctx.state;
      const { address, trx, usdt } = ctx.input.body;
      const atomic = (value: string, decimals: number, field: string) => {
        try {
          return decimalToAtomic(value, decimals, field);
        } catch (error) {
          throw invalid((error as Error).message, field);
        }
      };
      const trxSun = trx === undefined ? 0n : atomic(trx, 6, 'trx');
      const token = chain.token('USDT')!;
      const usdtAtomic = usdt === undefined ? 0n : atomic(usdt, token.decimals, 'usdt');
      if (trxSun > 0n) chain.fundTrx(address, trxSun);
      const tx = usdtAtomic > 0n ? chain.syntheticTransfer({ token, to: address, amount: usdtAtomic, label: 'fund' }) : undefined;
      ctx.state.tick();
      return ok({
        address,
        trx_sun: Number(chain.trxBalance(address)),
        usdt: atomicToDecimal(chain.tokenBalance(address, token.address), token.decimals),
        ...(tx ? { usdt_txid: tx.txid } : {}),
      });
    },
  },
  mockChainAccount: {
    handle(ctx) {
      const { chain } = ctx.state;
      const address = ctx.input.params.address;
      if (!isTronAddress(address)) throw invalid('not a TRON address', 'address');
      const a = chain.accounts.get(address);
      return ok({
        address,
        trx_sun: Number(chain.trxBalance(address)),
        energy_limit: a?.energyLimit ?? 0,
        energy_used: a?.energyUsed ?? 0,
        tokens: Object.fromEntries(
          CHAIN_TOKENS.map((t) => [
            t.symbol === 'USDD' && t.address !== 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn' ? 'USDD2' : t.symbol,
            atomicToDecimal(chain.tokenBalance(address, t.address), t.decimals),
          ]),
        ),
      });
    },
  },
  /** Make an address spend energy over time: { address, energy_per_hour, every_sec?, for_sec? }. */
  mockChainUsage: {
    handle(ctx) {
      const b = ctx.input.body;
      ctx.state.tick();
      return ok(
        ctx.state.usage.set({
          address: b.address,
          energy_per_hour: b.energy_per_hour,
          every_sec: b.every_sec,
          until: b.for_sec === undefined ? undefined : ctx.state.now() + b.for_sec * 1000,
        }),
      );
    },
  },
  mockChainUsageGet: {
    handle(ctx) {
      const pattern = ctx.state.usage.get(ctx.input.params.address);
      if (!pattern) throw new MockApiError('NOT_FOUND', 'no usage pattern for that address', { field: 'address' }, 404);
      return ok(pattern);
    },
  },
  /** Customers pay into deposit addresses over time: { addresses, token?, every_sec?, min?, max?, for_sec?, count? }. */
  mockChainDeposits: {
    handle(ctx) {
      const b = ctx.input.body;
      ctx.state.tick();
      const until = b.for_sec === undefined ? undefined : ctx.state.now() + b.for_sec * 1000;
      try {
        return ok(ctx.state.deposits.start({ ...b, until }));
      } catch (error) {
        if (error instanceof RangeError) throw invalid(error.message, 'min');
        throw error;
      }
    },
  },
  mockChainDepositsGet: {
    handle(ctx) {
      const pattern = ctx.state.deposits.get(ctx.input.params.id);
      if (!pattern) throw new MockApiError('NOT_FOUND', 'no deposit pattern with that id', { field: 'id' }, 404);
      return ok(pattern);
    },
  },
  mockChainDepositsStop: {
    handle(ctx) {
      if (!ctx.state.deposits.stop(ctx.input.params.id)) throw new MockApiError('NOT_FOUND', 'no deposit pattern with that id', { field: 'id' }, 404);
      return ok(ctx.state.deposits.get(ctx.input.params.id));
    },
  },
  mockX402Config: { handle: (ctx) => ok(ctx.state.paid.paywall.options) },
  /** Change the paid side's options at runtime, e.g. { version: 1 } for v1-only clients. */
  mockSetX402Config: {
    handle(ctx) {
      const { paywall } = ctx.state.paid;
      paywall.configure(ctx.input.body);
      return ok(paywall.options);
    },
  },
  mockX402Payments: { handle: (ctx) => ok(ctx.state.paid.paywall.payments) },
  mockInvoice: {
    handle: ({ state, input: { params } }) => ok(state.paid.watchers.invoiceView(record(state.paid.watchers.invoices.get(params.id), 'invoice', params.id))),
  },
  mockReceive: {
    handle: ({ state, input: { params } }) => ok(state.paid.watchers.receiveView(record(state.paid.watchers.receives.get(params.id), 'receive', params.id))),
  },
  mockWatch: {
    handle: ({ state, input: { params } }) => ok(state.paid.watchers.watchView(record(state.paid.watchers.watches.get(params.id), 'watch', params.id))),
  },
} satisfies PlainHandlers<PaidControl>;
