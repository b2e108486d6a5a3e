/**
 * The pay-per-call API: one tool per /x402/tron endpoint. Every call is paid from the session's
 * x402 wallet (USDT, USDC or USDD on TRON, or USDC on Base), so every tool here spends: it needs
 * --allow-spend, each payment is capped (--max-payment) and counted against the session budget
 * (--x402-budget) by the x402 client before anything is signed, and the user is asked to
 * confirm the price (session.ts) when the client supports it. Each payment is written to the
 * spend journal once approved, before it is signed, and settled when the call ends; one whose
 * outcome is unknown (no answer, a 5xx) stays open there, so a server restarted on the same state
 * folder counts it against its budget (the paid API has no idempotency: it is never replayed).
 */
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { RPC_METHODS, X402_LIMITS } from '../../schemas/x402.js';
import { X402_ENDPOINTS as X } from '../../api/x402.js';
import type { EndpointWire, McpBinding } from '../../api/types.js';
import { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES } from '../../schemas/enums.js';
import { isTrxRentError } from '../../errors/index.js';
import type { X402Client } from '../../x402/client.js';
import type { CallOptions, Paid, PaymentReceipt } from '../../x402/types.js';
import { type Tool, tool } from '../tool.js';
import { isTransactionHash } from '../text.js';

/** The payment made for a call, as the x402 client reports it. */
const Payment = z.looseObject({
  x402Version: z.number(),
  scheme: z.string(),
  network: z.string(),
  network_id: z.string(),
  asset: z.string(),
  symbol: z.string(),
  decimals: z.number(),
  /** Atomic units of the token settled. */
  amount: z.string(),
  /** Fee authorised on top, atomic units. */
  fee: z.string(),
  /** USD value of amount + fee. */
  amount_usd: z.string(),
  payTo: z.string(),
  payer: z.string(),
  /** The settlement's transaction hash; null when none was reported or it was not a hash. */
  transaction: z.string().nullable(),
  /** Present (true) when the service reported a settlement `transaction` that is not a hash of its network: not shown. */
  transaction_invalid: z.boolean().optional(),
});

const FIXED = `Costs ${X402_LIMITS.FIXED_PRICE_USD} USD per call`;
const DYNAMIC = `Costs ${X402_LIMITS.DYNAMIC_MIN_USD} to ${X402_LIMITS.DYNAMIC_MAX_USD} USD per call`;
const PAID =
  ", paid through x402 from the server's wallet (USDT/USDC/USDD on TRON or USDC on Base). SPENDS MONEY: needs --allow-spend; capped per call (--max-payment) and in total for the server (--x402-budget, all sessions together); " +
  'the user must confirm the price (elicitation). Returns { data, payment } (payment.amount_usd in USD).';

/** A paid entry of the table that names its MCP tool. */
type PaidEntry = EndpointWire & { readonly id: string; readonly mcp: McpBinding; readonly price: { kind: 'fixed' | 'dynamic' } };

/** The input of an entry's tool: its one request part (path parameters, query or body). */
type InputOf<E extends EndpointWire> = NonNullable<E['body'] extends ZodMiniType ? E['body'] : E['query'] extends ZodMiniType ? E['query'] : E['params']>;

/** What a paid tool adds to its table entry: the words an agent reads, and the SDK call. */
interface PaidSpec<E extends PaidEntry, I extends ZodMiniType> {
  title: string;
  what: string;
  fields?: Record<string, string>;
  /** The tool's input when it is not the entry's one request part (x402_rpc: path parameter and body). */
  input?: I;
  call(client: X402Client, args: z.output<I>, options: CallOptions): Promise<Paid<unknown>>;
}

/** The tool of a paid entry: name, price, input and output schemas from the table (`src/api/x402.ts`). */
function paid<E extends PaidEntry, I extends ZodMiniType = InputOf<E>>(entry: E, spec: PaidSpec<E, I>): Tool {
  const input = spec.input ?? entry.body ?? entry.query ?? entry.params;
  if (!input) throw new Error(`MCP: ${entry.id} takes no input`);
  return tool({
    name: entry.mcp.tool,
    title: spec.title,
    description: `${spec.what} ${entry.price.kind === 'fixed' ? FIXED : DYNAMIC}${PAID}`,
    access: 'spend',
    input,
    output: z.object({ data: entry.response, payment: Payment.nullable() }) as ZodMiniType,
    fields: spec.fields,
    async run(args, { session, signal }) {
      // What an earlier process paid with an unknown outcome counts first (the journal's x402 payments).
      await session.guard.restore();
      const client = session.x402();
      const before = client.spent;
      const budget = session.guard.limits.x402Budget;
      let result: Paid<unknown>;
      try {
        result = await spec.call(client, args as z.output<I>, { signal });
      } catch (error) {
        await session.paymentEnded(error);
        if (client.spent !== before) {
          session.guard.log(
            `paid ${entry.mcp.tool}, call failed (${isTrxRentError(error) ? error.code : 'error'}): the payment counts (x402 server total ${session.x402Spent()} of ${budget} USD)`,
          );
        }
        throw error;
      }
      await session.paymentEnded();
      const p = checkedReceipt(result.payment as PaymentReceipt | null);
      const tx = p?.transaction
        ? `, tx ${p.transaction}`
        : p?.transaction_invalid
          ? ', tx invalid (the service reported a settlement transaction that is not a hash; not shown)'
          : '';
      session.guard.log(
        p
          ? `paid ${entry.mcp.tool}: ${p.amount_usd} USD in ${p.symbol} on ${p.network_id} (${p.scheme})${tx} (x402 server total ${session.x402Spent()} of ${budget} USD)`
          : `${entry.mcp.tool}: no payment was asked for`,
      );
      return { data: result.data, payment: p };
    },
  });
}

/**
 * The receipt with its settlement `transaction` checked: a hash of the payment's network (64 hex
 * on TRON, 0x + 64 hex on EVM) or null with `transaction_invalid: true`. A facilitator's
 * `transaction` is free text from a server; nothing else is shown as a transaction hash.
 */
function checkedReceipt(p: PaymentReceipt | null): (PaymentReceipt & { transaction_invalid?: boolean }) | null {
  if (!p || p.transaction === null || p.transaction === undefined) return p;
  if (typeof p.transaction === 'string' && isTransactionHash(String(p.network), p.transaction)) return p;
  return { ...p, transaction: null, transaction_invalid: true };
}

const amountField = (what: string) => `${what}, a decimal string in token units like "1.5" (not atomic units)`;

export const X402_TOOLS = [
  paid(X.x402Prices, {
    title: 'x402: energy prices',
    what: 'Live energy/bandwidth prices aggregated from providers (price_sun: SUN per unit).',
    fields: { resource: 'ENERGY or BANDWIDTH; omitted: both' },
    call: (c, args, o) => c.prices(args, o),
  }),
  paid(X.x402Account, {
    title: 'x402: account resources',
    what: 'TRX balance (SUN), energy and bandwidth limits and TRC-20 balances of any TRON address.',
    fields: { address: 'Base58 TRON address (T…)' },
    call: (c, args, o) => c.account(args.address, o),
  }),
  paid(X.x402Estimate, {
    title: 'x402: estimate a transaction',
    what: 'Energy and bandwidth a transaction would use and its cost in TRX (cost_trx, not SUN), from a simulation.',
    fields: {
      operation: ESTIMATE_OPERATIONS.join(', '),
      to: 'Receiver, base58 TRON address',
      amount: amountField('Amount'),
      contract: 'Contract called (e.g. a TRC-20 token), base58',
    },
    call: (c, args, o) => c.estimate(args, o),
  }),
  paid(X.x402SwapQuote, {
    title: 'x402: swap quote',
    what: 'A DEX quote for a token swap (amount_out, price_impact, rate as decimal strings).',
    fields: { from: 'Token sold: symbol (USDT, TRX…) or TRC-20 contract', to: 'Token bought: symbol or contract', amount: amountField('Amount of `from`') },
    call: (c, args, o) => c.swapQuote(args, o),
  }),
  paid(X.x402Network, {
    title: 'x402: chain parameters',
    what: 'TRON chain parameters (energy price, bandwidth cost, maintenance schedule).',
    fields: { format: 'full (default) or summary' },
    call: (c, args, o) => c.network(args, o),
  }),
  paid(X.x402Invoice, {
    title: 'x402: create an invoice',
    what: 'A USDT invoice whose payments are detected automatically.',
    fields: {
      amount_usdt: amountField('Amount due in USDT'),
      description: 'Free text, at most 500 characters',
      pay_to_address: 'Address to be paid (base58); omitted: the service picks one',
      expires_in_seconds: `Lifetime in seconds (default ${X402_LIMITS.INVOICE_EXPIRES_DEFAULT_S})`,
    },
    call: (c, args, o) => c.invoice(args, o),
  }),
  paid(X.x402Watch, {
    title: 'x402: watch an address',
    what: 'A webhook on each matching incoming TRC-20 transfer to an address, for 24 hours.',
    fields: {
      address: 'Address to watch (base58)',
      webhook_url: 'http(s) URL that receives each transfer',
      event_types: `Any of ${WATCH_EVENT_TYPES.join(', ')}`,
      token_contract: 'Only this token contract (base58)',
      min_amount: amountField('Ignore smaller transfers'),
    },
    call: (c, args, o) => c.watch(args, o),
  }),
  paid(X.x402Receive, {
    title: 'x402: expect a payment',
    what: 'A one-time watch for one expected incoming payment (webhook when detected).',
    fields: {
      expected_amount: amountField('Amount expected'),
      token_contract: 'Token expected (base58 contract); omitted: USDT',
      tolerance_pct: 'Accepted deviation in percent, 0 to 100 (default 0)',
      timeout_seconds: `How long to wait, in seconds (default ${X402_LIMITS.RECEIVE_TIMEOUT_DEFAULT_S})`,
      webhook_url: 'http(s) URL called once when the payment is detected',
    },
    call: (c, args, o) => c.receive(args, o),
  }),
  paid(X.x402Send, {
    title: 'x402: broadcast a signed USDT transfer',
    what: "Broadcast a USDT transfer the user already signed (signed_tx); the service buys the energy it needs. The transfer itself moves the user's USDT as signed.",
    fields: {
      to: 'Receiver (base58); must match the signed transfer',
      amount_usdt: amountField('USDT amount; must match the signed transfer'),
      signed_tx: 'The signed transaction, as a JSON string',
      memo: 'Free text, at most 200 characters',
    },
    call: (c, args, o) => c.send(args, o),
  }),
  paid(X.x402SendBatch, {
    title: 'x402: broadcast signed transfers',
    what: `Broadcast 1 to ${X402_LIMITS.MAX_BATCH_TRANSFERS} transfers the user already signed, in one call.`,
    fields: { transfers: `1 to ${X402_LIMITS.MAX_BATCH_TRANSFERS} items of { to, amount (decimal string, token units), signed_tx }` },
    call: (c, args, o) => c.sendBatch(args, o),
  }),
  paid(X.x402SwapExecute, {
    title: 'x402: execute a swap',
    what: 'Execute a token swap on a DEX (energy provided).',
    fields: {
      from_token: 'Token sold: symbol or TRC-20 contract',
      to_token: 'Token bought: symbol or contract',
      amount: amountField('Amount of from_token'),
      slippage_pct: `Largest accepted price movement in percent, 0 to 50 (default ${X402_LIMITS.SWAP_SLIPPAGE_DEFAULT_PCT})`,
    },
    call: (c, args, o) => c.swapExecute(args, o),
  }),
  paid(X.x402Rpc, {
    title: 'x402: TRON node call',
    what: `One whitelisted TRON node method (${RPC_METHODS.join(', ')}) with its JSON body.`,
    input: z.strictObject({ method: X.x402Rpc.params.shape.method, body: X.x402Rpc.body.optional() }),
    fields: { method: 'e.g. wallet/getnowblock', body: 'JSON object as the node method expects it; omitted: {}' },
    call: (c, args, o) => c.rpc(args.method, args.body ?? {}, o),
  }),
];
