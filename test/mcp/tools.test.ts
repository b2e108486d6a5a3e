import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TrxRent } from '../../src/client.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { CHAIN_TOKENS, getPaidMock, labelAddress } from '../../src/mock/x402/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { signTrc20Transfer } from '../../src/x402/transfers.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { READ_TOOLS } from '../../src/mcp/tools/read.js';
import { listing } from '../../src/mcp/tool.js';
import { ENDPOINT_LIST } from '../../src/api/endpoints.js';
import { KEYS, TARGET, call, type connect, errorOf, ok, text, type Connected, session as sessionOn } from './helpers.js';

/**
 * The MCP server driven by the SDK's own client over its in-memory transport, against the mock
 * over real HTTP on 127.0.0.1: every tool, read-only mode, the caps across a session,
 * confirmations declined (nothing spent), and bad arguments as tool errors.
 */
let mock: MockServer;
let api: TrxRent;
beforeAll(async () => {
  // Fast order timings: a MARKET order pinned to the previewed price fails if a 30 s price poll lands
  // between the preview and the provider selection; 20 ms instead of 300 ms keeps that window tiny.
  mock = await startMockServer({ rateLimits: false, seed: 21, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
});
afterAll(() => mock.close());

const payments = () => getPaidMock(mock.state).paywall.payments.length;
const balance = () => api.balance.get();
const orderCount = async () => (await api.orders.list({ limit: 1 })).total;
const ORDER = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };

/** Opens a session for one test and closes it afterwards. */
async function session<T>(options: Parameters<typeof connect>[1], run: (c: Connected) => Promise<T>, elicit?: Parameters<typeof connect>[2]): Promise<T> {
  // A client without elicitation spends only on a server started with --spend-without-confirmation:
  // the tests of caps use one unless they say otherwise.
  return sessionOn(mock, { spendWithoutConfirmation: !elicit, ...options }, run, elicit);
}

const SPENDING = [
  'create_order',
  'ensure_resources',
  'send_token',
  'send_batch',
  'sweep',
  'withdraw',
  ...TOOLS.filter((t) => t.name.startsWith('x402_')).map((t) => t.name),
];

describe('tools/list', () => {
  test('every tool, with JSON Schemas from the zod schemas, units in the descriptions', async () => {
    await session({}, async ({ client }) => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(TOOLS.map((t) => t.name));
      for (const name of [
        'get_prices',
        'get_best_price',
        'get_price_history',
        'get_price_stats',
        'preview_order',
        'create_order',
        'get_order',
        'list_orders',
        'wait_for_order',
        'get_balance',
        'get_history',
        'get_history_summary',
        'get_deposit_info',
        'prepare_deposit',
        'withdraw',
        'create_webhook',
        'list_webhooks',
      ]) {
        expect(names).toContain(name);
      }
      expect(names.filter((n) => n.startsWith('x402_'))).toHaveLength(12);
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.outputSchema?.type, t.name).toBe('object');
        expect(t.description, t.name).toBeTruthy();
        expect(t.annotations?.readOnlyHint, t.name).toBe(!SPENDING.includes(t.name) && !['create_webhook', 'delete_webhook'].includes(t.name));
      }
      const create = tools.find((t) => t.name === 'create_order')!;
      expect(create.description).toMatch(/SUN/);
      expect(create.description).toMatch(/65000/);
      expect(create.description).toMatch(/--allow-spend/);
      expect(create.inputSchema).toMatchObject({ required: ['resource_type', 'amount', 'duration_sec', 'target_address'], additionalProperties: false });
      expect((create.inputSchema.properties as Record<string, { description?: string }>).amount?.description).toMatch(/not SUN.*65000/);
      expect(tools.find((t) => t.name === 'withdraw')!.description).toMatch(/50000000 \(50 TRX\)/);
      expect(tools.find((t) => t.name === 'get_balance')!.description).toMatch(/SUN/);
      expect(tools.find((t) => t.name === 'prepare_deposit')!.description).toMatch(/1000000/);
      expect(tools.find((t) => t.name === 'x402_send')!.description).toMatch(/0\.001 to 0\.01 USD/);
      expect(tools.find((t) => t.name === 'x402_prices')!.description).toMatch(/0\.01 USD/);
    });
  });
});

describe('read tools (no --allow-spend needed)', () => {
  test('each answers with structured content matching the SDK', async () => {
    await session({}, async ({ client }) => {
      const prices = ok<{ providers: Array<{ provider: string }> }>(await call(client, 'get_prices'));
      expect(prices.providers.length).toBeGreaterThan(0);
      expect(prices.providers).toEqual(await api.prices.list());

      const preview = ok<{ best: { price_sun: number; cost_trx: number } }>(
        await call(client, 'preview_order', { resource: 'ENERGY', amount: 65_000, duration: 3600 }),
      );
      expect(preview.best.price_sun).toBeGreaterThan(0);

      expect(ok(await call(client, 'get_balance'))).toEqual(await balance());
      expect(ok(await call(client, 'get_history', { period: '30D' }))).toEqual({ fills: await api.history.list({ period: '30D' }) });
      expect(ok(await call(client, 'get_history_summary'))).toEqual(await api.history.summary());
      expect(ok(await call(client, 'list_orders', { limit: 5 }))).toEqual(await api.orders.list({ limit: 5 }));
      expect(ok(await call(client, 'list_webhooks'))).toEqual({ webhooks: await api.webhooks.list() });
      const deposit = ok<{ memo: string; amount_sun: number; address: string }>(await call(client, 'prepare_deposit', { amount_sun: 5_000_000 }));
      expect(deposit).toMatchObject({ memo: mock.memo, amount_sun: 5_000_000 });

      const created = await api.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET });
      expect(ok<{ id: string }>(await call(client, 'get_order', { id: created.id })).id).toBe(created.id);
      const filled = ok<{ status: string; total_cost_sun: number }>(await call(client, 'wait_for_order', { id: created.id, timeout_sec: 20 }, 30_000));
      expect(filled.status).toBe('FILLED');
      expect(filled.total_cost_sun).toBeGreaterThan(0);
    });
  });

  test('an API error is a tool error with the SDK code and message; the server carries on', async () => {
    await session({}, async ({ client }) => {
      const missing = errorOf(await call(client, 'get_order', { id: '00000000-0000-4000-8000-000000000000' }));
      expect(missing.code).toBe('NOT_FOUND');
      expect(missing.message).toBeTruthy();
      expect(ok(await call(client, 'get_balance'))).toHaveProperty('trx');
    });
  });

  test('without an API key: public tools work, the rest answer UNAUTHORIZED', async () => {
    await session({ apiKey: undefined }, async ({ client }) => {
      expect(ok<{ providers: unknown[] }>(await call(client, 'get_prices')).providers.length).toBeGreaterThan(0);
      expect(errorOf(await call(client, 'get_balance')).code).toBe('UNAUTHORIZED');
    });
  });
});

describe('read tools generated from the endpoint table', () => {
  test('one per unpaid GET of the account API, in table order; every tool the table names exists', () => {
    const gets = ENDPOINT_LIST.filter((e) => e.api === 'account' && e.method === 'GET');
    for (const e of gets) expect(e.mcp?.tool, `${e.id} names no MCP tool`).toBeTruthy();
    expect(READ_TOOLS.map((t) => t.name)).toEqual(gets.map((e) => e.mcp!.tool));
    for (const t of READ_TOOLS) expect(t.access, t.name).toBe('read');
    const names = TOOLS.map((t) => t.name);
    for (const e of ENDPOINT_LIST) if (e.mcp) expect(names, e.id).toContain(e.mcp.tool);
    expect(new Set(names).size).toBe(names.length);
  });

  test('description from the summary and units, fields described by the schemas, output from the response', () => {
    const preview = listing(READ_TOOLS.find((t) => t.name === 'preview_order')!) as {
      description: string;
      inputSchema: { properties: Record<string, { description?: string }>; required: string[] };
    };
    expect(preview.description).toMatch(/^What an order would cost now; places nothing\. .*cost_trx: total in TRX/);
    expect(preview.inputSchema.properties.amount?.description).toMatch(/not SUN.*65000/);
    expect(preview.inputSchema.required).toEqual(['resource', 'amount', 'duration']);
    const order = listing(READ_TOOLS.find((t) => t.name === 'get_order')!) as {
      inputSchema: { properties: Record<string, { description?: string }> };
      outputSchema: { required: string[] };
    };
    expect(order.inputSchema.properties.id?.description).toBe('Order UUID.');
    expect(order.outputSchema.required).toContain('fills');
  });

  test('the tools no hand-written one covered answer like the SDK', async () => {
    await session({}, async ({ client }) => {
      const best = ok<{ provider: string; price_sun: number }>(await call(client, 'get_best_price', { resource: 'ENERGY' }));
      expect(best.provider).toBe((await api.prices.best({ resource: 'ENERGY' })).provider);
      expect(ok(await call(client, 'get_price_stats'))).toMatchObject({ total_providers: expect.any(Number) });
      const history = ok<{ prices: unknown[] }>(await call(client, 'get_price_history', { resource: 'ENERGY', period: '1h' }));
      expect(history.prices.length).toBeGreaterThan(0);
      expect(ok(await call(client, 'get_deposit_info'))).toEqual(await api.deposits.info());
      expect(errorOf(await call(client, 'get_best_price', { resource: 'WATER' })).code).toBe('VALIDATION_ERROR');
    });
  });
});

describe('read-only unless --allow-spend', () => {
  test('every tool that spends or writes answers READ_ONLY and nothing happens', async () => {
    const before = { balance: await balance(), orders: await orderCount(), payments: payments(), webhooks: (await api.webhooks.list()).length };
    await session({}, async ({ client, logs }) => {
      const args: Record<string, Record<string, unknown>> = {
        create_order: ORDER,
        withdraw: { address: TARGET, amount: 50_000_000, currency: 'TRX' },
        create_webhook: { url: 'https://example.com/hook', events: ['order.filled'] },
        delete_webhook: { id: 'wh_1' },
        x402_prices: {},
        x402_rpc: { method: 'wallet/getnowblock' },
      };
      for (const [name, a] of Object.entries(args)) {
        const error = errorOf(await call(client, name, a));
        expect(error.code, name).toBe('READ_ONLY');
        expect(error.message).toMatch(/--allow-spend/);
      }
      expect(logs).toEqual([]);
    });
    expect(await balance()).toMatchObject({ trx: before.balance.trx, usdt: before.balance.usdt });
    expect(await orderCount()).toBe(before.orders);
    expect(payments()).toBe(before.payments);
    expect((await api.webhooks.list()).length).toBe(before.webhooks);
  });
});

describe('spending (--allow-spend)', () => {
  test('create_order: pinned to the previewed price, filled within the maximum, logged', async () => {
    await session({ allowSpend: true }, async ({ client, logs }) => {
      const before = await balance();
      const created = ok<{ order: { id: string; status: string; max_price_sun: number }; max_cost_sun: number; max_cost_trx: string; max_price_sun: number }>(
        await call(client, 'create_order', ORDER),
      );
      expect(created.order.status).toBe('PENDING');
      expect(created.order.max_price_sun).toBe(created.max_price_sun);
      expect(created.max_cost_sun).toBe(65_000 * created.max_price_sun);
      const filled = ok<{ status: string; total_cost_sun: number }>(await call(client, 'wait_for_order', { id: created.order.id, timeout_sec: 20 }, 30_000));
      expect(filled.status).toBe('FILLED');
      expect(filled.total_cost_sun).toBeLessThanOrEqual(created.max_cost_sun);
      expect((await balance()).trx).toBe(before.trx - filled.total_cost_sun);
      expect(logs.some((l) => l.includes(`spent create_order: order ${created.order.id}`) && l.includes(`${created.max_cost_trx} TRX`))).toBe(true);
    });
  });

  test('the per-order cap refuses before anything is sent', async () => {
    const orders = await orderCount();
    await session({ allowSpend: true, limits: { maxOrderTrx: '1' } }, async ({ client }) => {
      const error = errorOf(await call(client, 'create_order', ORDER));
      expect(error.code).toBe('SPEND_LIMIT');
      expect(error.message).toMatch(/per-call cap of 1 TRX \(--max-order-trx\)/);
    });
    expect(await orderCount()).toBe(orders);
  });

  test('the session cap holds across calls of one session, and a new session starts afresh', async () => {
    const preview = await api.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    const cost = 65_000 * Number(preview.best!.price_sun);
    // room for two orders, not three
    const limit = ((cost * 2.5) / 1e6).toFixed(6);
    const orders = await orderCount();
    await session({ allowSpend: true, limits: { sessionLimit: limit } }, async ({ client }) => {
      ok(await call(client, 'create_order', ORDER));
      ok(await call(client, 'create_order', ORDER));
      const third = errorOf(await call(client, 'create_order', ORDER));
      expect(third.code).toBe('SESSION_LIMIT');
      expect(third.details).toMatchObject({ limit: '--session-limit', currency: 'TRX' });
    });
    expect(await orderCount()).toBe(orders + 2);
    await session({ allowSpend: true, limits: { sessionLimit: limit } }, async ({ client }) => {
      ok(await call(client, 'create_order', ORDER));
    });
  });

  test('wait_for_order: a TIMEOUT error when the order is still waiting, with progress notifications meanwhile', async () => {
    await session({ allowSpend: true }, async ({ client }) => {
      // a LIMIT order far below the market waits
      const created = ok<{ order: { id: string }; max_cost_sun: number }>(
        await call(client, 'create_order', { ...ORDER, order_type: 'LIMIT', max_price_sun: 1 }),
      );
      expect(created.max_cost_sun).toBe(65_000);
      const ticks: number[] = [];
      const result = (await client.callTool({ name: 'wait_for_order', arguments: { id: created.order.id, timeout_sec: 6 } }, undefined, {
        timeout: 15_000,
        onprogress: (p) => void ticks.push(p.progress),
      })) as CallToolResult;
      const error = errorOf(result);
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toMatch(/still PENDING/);
      expect(ticks.length).toBeGreaterThanOrEqual(1);
      expect(ok<{ status: string }>(await call(client, 'get_order', { id: created.order.id })).status).toBe('PENDING');
    });
  });

  test('wait_for_order: an order that ends FAILED is returned at once, not a tool error', async () => {
    const providers = ['tem', 'tronsave', 'netts', 'itrx', 'catfee', 'powersun'];
    for (const p of providers) mock.state.setProviderOverride(p, { fail_delegations: true });
    try {
      await session({ allowSpend: true }, async ({ client }) => {
        const created = ok<{ order: { id: string } }>(await call(client, 'create_order', ORDER));
        const started = Date.now();
        const ended = ok<{ id: string; status: string }>(await call(client, 'wait_for_order', { id: created.order.id, timeout_sec: 40 }, 50_000));
        expect(ended).toMatchObject({ id: created.order.id, status: 'FAILED' });
        expect(Date.now() - started).toBeLessThan(15_000); // at once, not at the 40 s timeout
      });
    } finally {
      for (const p of providers) mock.state.setProviderOverride(p, null);
    }
  });

  test('PERIODIC orders (no bound on their total) are refused', async () => {
    await session({ allowSpend: true }, async ({ client }) => {
      const error = errorOf(await call(client, 'create_order', { ...ORDER, order_type: 'PERIODIC', max_price_sun: 100 }));
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'order_type' } });
    });
  });

  test('withdrawals are off until a per-withdrawal cap is set; both caps apply', async () => {
    const w = { address: TARGET, amount: 50_000_000, currency: 'TRX' };
    await session({ allowSpend: true }, async ({ client }) => {
      const error = errorOf(await call(client, 'withdraw', w));
      expect(error.code).toBe('SPEND_LIMIT');
      expect(error.message).toMatch(/--max-withdrawal/);
    });
    await session({ allowSpend: true, limits: { maxWithdrawal: '60', sessionLimit: '100' } }, async ({ client, logs }) => {
      const before = await balance();
      const withdrawal = ok<{ id: string; status: string; amount: number }>(await call(client, 'withdraw', w));
      expect(withdrawal).toMatchObject({ status: 'PENDING', amount: 50_000_000 });
      expect((await balance()).trx).toBe(before.trx - 50_000_000);
      expect(logs.some((l) => l.includes(`spent withdraw: withdrawal ${withdrawal.id}`) && l.includes('50 TRX'))).toBe(true);
      expect(errorOf(await call(client, 'withdraw', { ...w, amount: 61_000_000 })).code).toBe('SPEND_LIMIT');
      // 50 spent + 55 > 100: over the session cap
      expect(errorOf(await call(client, 'withdraw', { ...w, amount: 55_000_000 })).code).toBe('SESSION_LIMIT');
      // USDT has its own session total
      ok(await call(client, 'withdraw', { ...w, currency: 'USDT', amount: 55_000_000 }));
    });
  });

  test('a refusal by the service releases the reservation', async () => {
    await session({ allowSpend: true, limits: { maxWithdrawal: '5000', sessionLimit: '5000' } }, async ({ client, logs }) => {
      const error = errorOf(await call(client, 'withdraw', { address: TARGET, amount: 4_000_000_000, currency: 'TRX' }));
      expect(error.code).toBe('INSUFFICIENT_BALANCE');
      expect(logs.at(-1)).toMatch(/not spent withdraw: refused \(INSUFFICIENT_BALANCE\)/);
    });
  });
});

describe('confirmation (elicitation)', () => {
  test('declined, cancelled or not approved: nothing is spent', async () => {
    const before = { balance: await balance(), orders: await orderCount(), payments: payments() };
    for (const answer of [{ action: 'decline' as const }, { action: 'cancel' as const }, { action: 'accept' as const, content: { approve: false } }]) {
      await session(
        { allowSpend: true, limits: { maxWithdrawal: '100' } },
        async ({ client, asked, logs }) => {
          for (const [name, args] of [
            ['create_order', ORDER],
            ['withdraw', { address: TARGET, amount: 50_000_000, currency: 'TRX' }],
            ['x402_prices', {}],
          ] as const) {
            const error = errorOf(await call(client, name, args));
            expect(error.code, `${name} ${answer.action}`).toBe('DECLINED');
            expect(error.message).toMatch(/nothing was (spent|paid)/);
          }
          expect(asked[0]).toMatch(/^Rent 65000 ENERGY to T\w+ for 3600 s \(MARKET\), at most \d+ SUN per unit: at most [\d.]+ TRX\. Approve\?$/);
          expect(asked[1]).toMatch(/^Withdraw 50 TRX to T\w+\. Approve\?$/);
          expect(asked[2]).toMatch(/^Pay 0\.01 USD in USDT on TRON .* for GET \/x402\/tron\/prices/);
          expect(logs.filter((l) => l.includes('refused'))).toHaveLength(3);
        },
        () => answer,
      );
    }
    expect(await balance()).toMatchObject({ trx: before.balance.trx, usdt: before.balance.usdt, trx_locked: before.balance.trx_locked });
    expect(await orderCount()).toBe(before.orders);
    expect(payments()).toBe(before.payments);
  });

  test('approved: the spend goes ahead', async () => {
    const before = payments();
    await session(
      { allowSpend: true },
      async ({ client, asked }) => {
        ok(await call(client, 'create_order', ORDER));
        ok(await call(client, 'x402_prices', { resource: 'ENERGY' }));
        expect(asked).toHaveLength(2);
      },
      () => ({ action: 'accept', content: { approve: true } }),
    );
    expect(payments()).toBe(before + 1);
  });

  test('by default (no --spend-without-confirmation) a client that cannot ask gets CONFIRMATION_REQUIRED, nothing spent', async () => {
    const orders = await orderCount();
    const paid = payments();
    await session({ allowSpend: true, spendWithoutConfirmation: false }, async ({ client, logs }) => {
      const refused = errorOf(await call(client, 'create_order', ORDER));
      expect(refused.code).toBe('CONFIRMATION_REQUIRED');
      expect(refused.message).toMatch(/--spend-without-confirmation/);
      expect(errorOf(await call(client, 'x402_network', {})).code).toBe('CONFIRMATION_REQUIRED');
      expect(logs.some((l) => /refused create_order: .*\(CONFIRMATION_REQUIRED\)/.test(l))).toBe(true);
    });
    expect(await orderCount()).toBe(orders);
    expect(payments()).toBe(paid);
  });
});

describe('x402 tools', () => {
  const chain = () => getPaidMock(mock.state).chain;
  const USDT = CHAIN_TOKENS[0]!;
  const SENDER = privateKeyToTronAddress(KEYS.tron2);
  const signed = (to: string, amount: string) => signTrc20Transfer({ privateKey: KEYS.tron2, to, amount, fullNode: mock.url });

  test('each of the twelve calls is paid once, with { data, payment }', async () => {
    chain().syntheticTransfer({ token: USDT, to: SENDER, amount: 20_000_000n });
    chain().fundTrx(SENDER, 5_000_000n); // an account on chain: java-tron refuses a sender that is none
    const a = labelAddress('mcp batch a');
    const b = labelAddress('mcp batch b');
    const to = labelAddress('mcp send');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['x402_prices', { resource: 'ENERGY' }],
      ['x402_account', { address: TARGET }],
      ['x402_estimate', { operation: 'trc20_transfer', to: TARGET, amount: '1' }],
      ['x402_swap_quote', { from: 'TRX', to: 'USDT', amount: '1000' }],
      ['x402_network', { format: 'summary' }],
      ['x402_invoice', { amount_usdt: '12.5', description: 'mcp' }],
      ['x402_watch', { address: TARGET, webhook_url: 'http://127.0.0.1:9/hook' }],
      ['x402_receive', { expected_amount: '3', timeout_seconds: 120 }],
      ['x402_send', { to, amount_usdt: '1.5', signed_tx: (await signed(to, '1.5')).signed_tx }],
      [
        'x402_send_batch',
        {
          transfers: [
            { to: a, amount: '0.25', signed_tx: (await signed(a, '0.25')).signed_tx },
            { to: b, amount: '0.75', signed_tx: (await signed(b, '0.75')).signed_tx },
          ],
        },
      ],
      ['x402_swap_execute', { from_token: 'USDT', to_token: 'TRX', amount: '50' }],
      ['x402_rpc', { method: 'wallet/getnowblock' }],
    ];
    expect(calls.map(([n]) => n)).toEqual(TOOLS.filter((t) => t.name.startsWith('x402_')).map((t) => t.name));
    const before = payments();
    await session({ allowSpend: true, limits: { x402Budget: '1' } }, async ({ client, logs }) => {
      for (const [name, args] of calls) {
        const result = ok<{ data: unknown; payment: { amount_usd: string; payer: string; transaction: string } }>(await call(client, name, args, 30_000));
        expect(result.data, name).toBeTruthy();
        expect(result.payment.payer).toBe(privateKeyToTronAddress(KEYS.tron));
        expect(Number(result.payment.amount_usd)).toBeGreaterThan(0);
        expect(Number(result.payment.amount_usd)).toBeLessThanOrEqual(0.01);
        expect(logs.at(-1)).toContain(`paid ${name}: ${result.payment.amount_usd} USD`);
      }
    });
    expect(payments()).toBe(before + 12);
    expect(chain().tokenBalance(b, USDT.address)).toBe(750_000n);
  });

  test('--max-payment below the price and the session budget refuse before signing', async () => {
    const before = payments();
    await session({ allowSpend: true, limits: { maxPayment: '0.005' } }, async ({ client }) => {
      const error = errorOf(await call(client, 'x402_prices', {}));
      expect(error.code).toBe('PAYMENT_REFUSED');
    });
    expect(payments()).toBe(before);
    await session({ allowSpend: true, limits: { x402Budget: '0.02' } }, async ({ client }) => {
      ok(await call(client, 'x402_network', {}));
      ok(await call(client, 'x402_network', {}));
      const error = errorOf(await call(client, 'x402_network', {}));
      expect(error.code).toBe('PAYMENT_REFUSED');
      expect(text(await call(client, 'x402_network', {}))).toMatch(/budget/i);
    });
    expect(payments()).toBe(before + 2);
  });

  test('no wallet: NO_WALLET, nothing paid (a key never comes from arguments)', async () => {
    const before = payments();
    await session({ allowSpend: true, wallet: undefined }, async ({ client }) => {
      expect(errorOf(await call(client, 'x402_prices', {})).code).toBe('NO_WALLET');
      // a key passed as an argument is an unknown property
      expect(errorOf(await call(client, 'x402_prices', { private_key: KEYS.tron })).code).toBe('VALIDATION_ERROR');
    });
    expect(payments()).toBe(before);
  });
});

describe('bad arguments', () => {
  test('are tool errors with the SDK code and field; nothing is sent; the server carries on', async () => {
    const orders = await orderCount();
    await session({ allowSpend: true }, async ({ client }) => {
      expect(errorOf(await call(client, 'create_order', { ...ORDER, amount: 1000 }))).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'amount', min: 65_000 },
      });
      expect(errorOf(await call(client, 'create_order', { ...ORDER, target_address: 'Tnot-an-address' }))).toMatchObject({ code: 'INVALID_ADDRESS' });
      expect(errorOf(await call(client, 'create_order', { ...ORDER, extra: 1 })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'create_order', { ...ORDER, order_type: 'LIMIT' }))).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'max_price_sun' },
      });
      expect(errorOf(await call(client, 'preview_order', { resource: 'ENERGY', amount: 'lots', duration: 3600 })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'get_order', {}))).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'id' } });
      expect(errorOf(await call(client, 'list_orders', { limit: 1000 })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'withdraw', { address: TARGET, amount: 1, currency: 'TRX' }))).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'amount' },
      });
      expect(errorOf(await call(client, 'prepare_deposit', { amount_sun: 5 })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'create_webhook', { url: 'http://example.com/hook', events: ['order.filled'] })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'x402_rpc', { method: 'wallet/broadcasttransaction' })).code).toBe('VALIDATION_ERROR');
      expect(errorOf(await call(client, 'wait_for_order', { id: 'x', timeout_sec: 100_000 })).code).toBe('VALIDATION_ERROR');
      const text_ = text(await call(client, 'create_order', { ...ORDER, amount: 1000 }));
      expect(text_).toMatch(/^VALIDATION_ERROR: amount: must be at least 65000 for energy/);
      // an unknown tool is a protocol error (-32602), not a crash
      await expect(call(client, 'no_such_tool')).rejects.toBeInstanceOf(McpError);
      expect((await client.listTools()).tools.length).toBe(TOOLS.length);
      expect(ok(await call(client, 'get_balance'))).toHaveProperty('trx');
    });
    expect(await orderCount()).toBe(orders);
  });
});
