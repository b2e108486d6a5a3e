/**
 * The money limits of an MCP session, as the user sets them (flags, profile) and as the spend
 * guard checks them (exact integers). No MCP SDK here: the CLI reads these facts for its help.
 * @module
 */
import { ValidationError } from '../errors/index.js';
import { decimalToAtomic } from '../utils/units.js';

/** What the user allows an agent to spend, as decimal strings in the units named. */
export interface SpendLimits {
  /**
   * Most one order may cost, in TRX (the order's price per unit is pinned so it cannot cost more).
   * @default '50'
   */
  maxOrderTrx?: string | undefined;
  /**
   * Most one withdrawal may move, in its currency (TRX or USDT). Unset: withdrawals are refused.
   * @default undefined
   */
  maxWithdrawal?: string | undefined;
  /**
   * Most all orders and withdrawals of one session may spend together, per currency (TRX: orders
   * and TRX withdrawals; USDT: USDT withdrawals).
   * @default '100'
   */
  sessionLimit?: string | undefined;
  /**
   * Most one x402 call may cost, in USD (amount plus any fee).
   * @default '0.01' (the documented price of a call)
   */
  maxPayment?: string | undefined;
  /**
   * Most all x402 calls of one session may cost together, in USD.
   * @default '0.1'
   */
  x402Budget?: string | undefined;
}

export const DEFAULT_LIMITS = {
  maxOrderTrx: '50',
  maxWithdrawal: undefined,
  sessionLimit: '100',
  maxPayment: '0.01',
  x402Budget: '0.1',
} as const satisfies SpendLimits;

/** Default idle time after which an HTTP session is closed: 15 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;
/** Default most live HTTP sessions. */
export const DEFAULT_MAX_SESSIONS = 32;
/** Shortest bearer token `--http` accepts (from a file, the environment or the caller). */
export const MIN_TOKEN_LENGTH = 16;

/** The limits as exact integers: TRX and USDT in 6-decimal units (SUN), USD as decimal strings. */
export interface ResolvedLimits {
  maxOrderSun: bigint;
  /** undefined: withdrawals are off. */
  maxWithdrawalAtomic: bigint | undefined;
  sessionAtomic: bigint;
  maxPayment: string;
  x402Budget: string;
}

const USD = /^\d+(\.\d+)?$/;

function atomic(value: string, field: string): bigint {
  const text = String(value).trim();
  if (!/^\d+(\.\d{1,6})?$/.test(text)) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: `${field} must be a non-negative amount with at most 6 decimals, like 12.5`,
      details: { field },
    });
  }
  return decimalToAtomic(text, 6, field);
}

function usd(value: string, field: string): string {
  const text = String(value).trim();
  if (!USD.test(text)) throw new ValidationError({ code: 'VALIDATION_ERROR', message: `${field} must be a USD amount like 0.01`, details: { field } });
  return text;
}

/** Defaults filled in and every amount checked; a malformed one is a ValidationError naming it. */
export function resolveLimits(limits: SpendLimits = {}): ResolvedLimits {
  const withdrawal = limits.maxWithdrawal ?? DEFAULT_LIMITS.maxWithdrawal;
  return {
    maxOrderSun: atomic(limits.maxOrderTrx ?? DEFAULT_LIMITS.maxOrderTrx, 'maxOrderTrx'),
    maxWithdrawalAtomic: withdrawal === undefined || withdrawal === '' ? undefined : atomic(withdrawal, 'maxWithdrawal'),
    sessionAtomic: atomic(limits.sessionLimit ?? DEFAULT_LIMITS.sessionLimit, 'sessionLimit'),
    maxPayment: usd(limits.maxPayment ?? DEFAULT_LIMITS.maxPayment, 'maxPayment'),
    x402Budget: usd(limits.x402Budget ?? DEFAULT_LIMITS.x402Budget, 'x402Budget'),
  };
}
