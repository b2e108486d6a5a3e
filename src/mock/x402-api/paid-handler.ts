/**
 * How a paid endpoint is declared: `paid({ input, price?, run })` turns an input check, a
 * dynamic price and a result into a handler of the mock's pipeline, which runs the x402
 * exchange around it (challenge, verification, settlement) and wraps the result in `{ data }`.
 * Also the paid side's shared pieces: the dynamic-price formula, spec errors with their
 * status, the 1-hour rental tier and the default token.
 * @module
 */
import { CHAIN_TOKENS } from '../chain/accounts.js';
import { MockApiError } from '../shared/errors.js';
import type { RouteContext } from '../http/route.js';
import { type CustomHandler, type HandlerContext, customHandler } from '../http/table.js';
import type { PaidMock } from '../x402/paid.js';

const DYNAMIC_BASE = 1_000n;
const DYNAMIC_SPAN = 9_000n;
/** Rentals the paid side makes last an hour (the market's 1-hour tier). */
export const HOUR_SEC = 3600;
/** The paid side's default token. */
export const USDT = CHAIN_TOKENS.find((t) => t.symbol === 'USDT')!;

/** A dynamic price in micro-USD: 0.001 USD plus up to 0.009 USD for `work` out of `cap` (more is capped). */
export function dynamicPrice(work: bigint, cap: bigint): bigint {
  const w = work < 0n ? 0n : work > cap ? cap : work;
  return DYNAMIC_BASE + (DYNAMIC_SPAN * w) / cap;
}

/** A spec error with its status (paid routes give theirs explicitly). */
export function fail(status: number, code: string, message: string, details?: Record<string, unknown>): MockApiError {
  return new MockApiError(code, message, details, status);
}

/** What a paid endpoint declares: its input check, its price when dynamic, its result. */
export interface PaidHandlerSpec<I> {
  /** Validate the request (free: a 400 before any challenge). `ctx.body` is the parsed JSON body of a POST. */
  input(ctx: RouteContext, mock: PaidMock): I;
  /** A dynamic price in micro-USD; fixed prices come from the table entry. */
  price?(mock: PaidMock, input: I): bigint;
  /** The result: what goes in `{ data }`. */
  run(mock: PaidMock, input: I, ctx: { payer: string; origin: string }): unknown;
}

/** A paid handler: input, price, result; the pipeline runs the x402 exchange and wraps `{ data }`. */
export function paid<I>(spec: PaidHandlerSpec<I>): CustomHandler {
  return customHandler<I>({
    input: (ctx) => spec.input(ctx, ctx.state.paid),
    ...(spec.price ? { price: (ctx: HandlerContext<I>) => spec.price!(ctx.state.paid, ctx.input) } : {}),
    async handle(ctx) {
      return { status: 200, body: await spec.run(ctx.state.paid, ctx.input, { payer: ctx.payer, origin: ctx.request.origin }) };
    },
  });
}
