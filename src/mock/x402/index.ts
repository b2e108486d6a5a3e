import { http, HttpResponse, type RequestHandler } from 'msw';
import { isTronAddress } from '../../utils/address.js';
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import { CHAIN_TOKENS } from './chain.js';
import { type PaidContext, type PaidMockOptions, getPaidMock } from './context.js';
import { NodeError, nodeCall } from './node.js';
import { MOCK_PAY_TO, type PaywallOptions, gasFreeAddressOf } from './paywall.js';
import { paidHandlers } from './routes.js';

/**
 * The paid side of the mock (`/x402/tron/*`), the simulated TRON node (`/wallet/*`), a
 * simulated GasFree relayer (`/__mock/gasfree/api/v1/*`) and helpers (`/__mock/chain/*`,
 * `/__mock/x402/*`), all on the mock state passed in. The account-API simulator spreads these
 * into its handler list so both run on one server.
 */
export function createPaidHandlers(context: PaidContext | unknown, options?: PaidMockOptions): RequestHandler[] {
  const ctx = (context ?? {}) as PaidContext;
  const mock = () => getPaidMock(ctx, options);
  const { chain } = mock(); // create now, so the chain exists before the first request (deposits, helpers)
  // Deposits submitted to the account API are broadcast on this chain, like any transaction.
  // Test wallets have no on-chain history, so a deposit's sender is funded for its shortfall.
  const money = (ctx as { money?: { attachNetwork?: (b: (tx: never) => { result: boolean; code?: string; message?: string }) => void } }).money;
  money?.attachNetwork?.((tx) => chain.broadcast(tx, { fundShortfall: true }));
  // Order matters: `*/wallet/:method` would also match `/x402/tron/rpc/wallet/…`, so the paid
  // routes come first.
  return [...paidHandlers(mock), ...nodeHandlers(mock), ...relayerHandlers(mock), ...helperHandlers(mock)];
}

export { getPaidMock, getSimulatedChain, type PaidContext, type PaidMock, type PaidMockOptions } from './context.js';
export { SimulatedChain, CHAIN_TOKENS, CHAIN_PARAMETERS, TRC20_ENERGY, labelAddress, type ChainTransaction, type Trc20Transfer } from './chain.js';
export { MOCK_PAY_TO, BASE_USDC, gasFreeAddressOf, type PaywallOptions, type SettledPayment } from './paywall.js';
export { dynamicPrice } from './routes.js';

type MockGetter = () => ReturnType<typeof getPaidMock>;

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.clone().text();
  if (!text.trim()) return {};
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function nodeHandlers(getMock: MockGetter): RequestHandler[] {
  const serve = async (request: Request, method: string) => {
    const mock = getMock();
    mock.tick();
    const body: Record<string, unknown> = { ...(await bodyOf(request)) };
    for (const [k, v] of new URL(request.url).searchParams) if (!(k in body)) body[k] = v === 'true' ? true : v === 'false' ? false : v;
    try {
      return HttpResponse.json((nodeCall(mock.chain, method, body) ?? {}) as never);
    } catch (error) {
      if (error instanceof NodeError) return HttpResponse.json({ Error: error.message });
      throw error;
    }
  };
  return [
    http.post('*/wallet/:method', ({ request, params }) => serve(request, String(params.method))),
    http.get('*/wallet/:method', ({ request, params }) => serve(request, String(params.method))),
    http.post('*/walletsolidity/:method', ({ request, params }) => serve(request, String(params.method))),
  ];
}

/** A GasFree relayer (BankofAI API shape) for the simulated controller: accounts, nonces, providers. */
function relayerHandlers(getMock: MockGetter): RequestHandler[] {
  const ok = (data: unknown) => HttpResponse.json({ code: 200, reason: null, message: null, data } as never);
  return [
    http.get('*/__mock/gasfree/api/v1/address/:user', ({ params }) => {
      const mock = getMock();
      const user = String(params.user);
      if (!isTronAddress(user)) return HttpResponse.json({ code: 400, reason: 'InvalidAddress', message: 'not a TRON address', data: null }, { status: 400 });
      const gasFreeAddress = gasFreeAddressOf(user);
      const fee = mock.paywall.options.gasfreeTransferFee;
      return ok({
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
      });
    }),
    http.get('*/__mock/gasfree/api/v1/config/provider/all', () =>
      ok({
        providers: [
          {
            address: MOCK_PAY_TO.gasfreeProvider,
            name: 'trx-rent mock provider',
            icon: '',
            website: '',
            config: { maxPendingTransfer: 10, minDeadlineDuration: 60, maxDeadlineDuration: 600, defaultDeadlineDuration: 180 },
          },
        ],
      }),
    ),
  ];
}

const problem = (status: number, message: string) => HttpResponse.json({ error: { code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR', message } }, { status });

function helperHandlers(getMock: MockGetter): RequestHandler[] {
  return [
    /**
     * Land a TRC-20 transfer on the simulated chain (watch/receive/invoice detection runs at once).
     * Body: { to, amount: '1.5', token?: 'USDT' | symbol | contract, from? } — without `from`, the
     * faucet pays; with it, `from` must hold the amount.
     */
    http.post('*/__mock/chain/transfer', async ({ request }) => {
      const mock = getMock();
      mock.tick();
      const body = await bodyOf(request);
      const to = String(body.to ?? '');
      if (!isTronAddress(to)) return problem(400, 'to must be a TRON address');
      const token = mock.chain.token(String(body.token ?? 'USDT'));
      if (!token) return problem(400, 'token must be USDT, USDC, USDD or one of their contracts');
      let amount: bigint;
      try {
        amount = decimalToAtomic(String(body.amount ?? ''), token.decimals, 'amount');
      } catch (error) {
        return problem(400, (error as Error).message);
      }
      if (amount <= 0n) return problem(400, 'amount must be positive');
      const from = body.from === undefined ? undefined : String(body.from);
      if (from !== undefined && !isTronAddress(from)) return problem(400, 'from must be a TRON address');
      if (from !== undefined && mock.chain.tokenBalance(from, token.address) < amount) return problem(400, `${from} holds less than ${String(body.amount)} ${token.symbol}`);
      const tx = mock.chain.syntheticTransfer({ token, to, amount, ...(from ? { from } : {}), label: 'helper' });
      mock.tick();
      return HttpResponse.json({
        txid: tx.txid,
        block_number: tx.block,
        from: tx.owner,
        to,
        token: token.symbol,
        token_contract: token.address,
        amount: atomicToDecimal(amount, token.decimals),
      });
    }),
    /** Give an address TRX: { address, amount_sun }. */
    http.post('*/__mock/chain/fund', async ({ request }) => {
      const mock = getMock();
      const body = await bodyOf(request);
      const address = String(body.address ?? '');
      if (!isTronAddress(address)) return problem(400, 'address must be a TRON address');
      const sun = Number(body.amount_sun);
      if (!Number.isSafeInteger(sun) || sun <= 0) return problem(400, 'amount_sun must be a positive integer');
      mock.chain.fundTrx(address, BigInt(sun));
      return HttpResponse.json({ address, balance_sun: Number(mock.chain.trxBalance(address)) });
    }),
    http.get('*/__mock/chain/accounts/:address', ({ params }) => {
      const mock = getMock();
      const address = String(params.address);
      if (!isTronAddress(address)) return problem(400, 'not a TRON address');
      const a = mock.chain.accounts.get(address);
      return HttpResponse.json({
        address,
        trx_sun: Number(mock.chain.trxBalance(address)),
        energy_limit: a?.energyLimit ?? 0,
        energy_used: a?.energyUsed ?? 0,
        tokens: Object.fromEntries(CHAIN_TOKENS.map((t) => [t.symbol === 'USDD' && t.address !== 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn' ? 'USDD2' : t.symbol, atomicToDecimal(mock.chain.tokenBalance(address, t.address), t.decimals)])),
      });
    }),
    http.get('*/__mock/x402/config', () => HttpResponse.json(getMock().paywall.options as never)),
    /** Change the paid side's options at runtime, e.g. { version: 1 } for v1-only clients. */
    http.post('*/__mock/x402/config', async ({ request }) => {
      const mock = getMock();
      const body = (await bodyOf(request)) as PaywallOptions;
      if (body.version !== undefined && body.version !== 1 && body.version !== 2) return problem(400, 'version must be 1 or 2');
      mock.paywall.configure(body);
      return HttpResponse.json(mock.paywall.options as never);
    }),
    http.get('*/__mock/x402/payments', () => HttpResponse.json(getMock().paywall.payments as never)),
    http.get('*/__mock/x402/invoices/:id', ({ params }) => {
      const mock = getMock();
      const invoice = mock.watchers.invoices.get(String(params.id));
      return invoice ? HttpResponse.json(mock.watchers.invoiceView(invoice) as never) : problem(404, `No invoice ${String(params.id)}`);
    }),
    http.get('*/__mock/x402/receives/:id', ({ params }) => {
      const mock = getMock();
      const record = mock.watchers.receives.get(String(params.id));
      return record ? HttpResponse.json(mock.watchers.receiveView(record) as never) : problem(404, `No receive ${String(params.id)}`);
    }),
    http.get('*/__mock/x402/watches/:id', ({ params }) => {
      const mock = getMock();
      const record = mock.watchers.watches.get(String(params.id));
      return record ? HttpResponse.json(mock.watchers.watchView(record) as never) : problem(404, `No watch ${String(params.id)}`);
    }),
  ];
}
