/**
 * The MCP spend guard's caps, as plain functions over its state: the per-call cap of each line,
 * the server's cap per currency (spent plus reserved), and the one-line totals the log shows.
 * @module
 */
import { atomicToDecimal } from '../utils/units.js';
import type { Reservation, SpendingCap } from '../utils/spending-cap.js';
import { type Currency, type Known, type Outcome, SpendRefusedError, money } from './outcome.js';

/** One currency a spend may move, with its per-call cap. */
export interface SpendLine {
  currency: Currency;
  /** Most this call can move, in 6-decimal units (SUN for TRX). */
  atomic: bigint;
  /** The per-call cap and its name, or undefined when this kind of spend is off. */
  cap: { atomic: bigint | undefined; flag: string; off: string };
}

/** One spend: every currency it may move, reserved together. */
export interface SpendRequest {
  /** The tool, for the log. */
  tool: string;
  lines: SpendLine[];
  /** One line for the confirmation and the log, e.g. `rent 65000 ENERGY … for at most 5.85 TRX`. */
  summary: string;
}

/** A line over its per-call cap (or a kind of spend that is off): SPEND_LIMIT, nothing sent. */
export function checkCallCap(request: SpendRequest, { currency, atomic, cap }: SpendLine): void {
  if (cap.atomic === undefined) throw new SpendRefusedError('SPEND_LIMIT', cap.off, { limit: cap.flag });
  if (atomic > cap.atomic) {
    throw new SpendRefusedError(
      'SPEND_LIMIT',
      `${request.summary}: more than the per-call cap of ${money(cap.atomic, currency)} (${cap.flag}); nothing was sent.`,
      { limit: cap.flag, cap: atomicToDecimal(cap.atomic, 6), amount: atomicToDecimal(atomic, 6), currency },
    );
  }
}

/** A spend the server's cap for `line`'s currency (`cap`, of `sessionAtomic`) cannot take: SESSION_LIMIT, nothing sent. */
export function checkSessionCap(request: SpendRequest, { currency }: SpendLine, cap: SpendingCap, sessionAtomic: bigint): void {
  const atomic = perCurrency(request).get(currency) ?? 0n;
  if (cap.refusal(atomic) === undefined) return;
  const held = cap.reserved;
  throw new SpendRefusedError(
    'SESSION_LIMIT',
    `${request.summary}: over the server's cap (${money(cap.spent, currency)} spent${held ? ` and ${money(held, currency)} reserved (in flight or outcome unknown)` : ''} of ${money(sessionAtomic, currency)}, --session-limit, shared by every session of this server); nothing was sent.`,
    { limit: '--session-limit', spent: atomicToDecimal(cap.spent, 6), reserved: atomicToDecimal(held, 6), cap: atomicToDecimal(sessionAtomic, 6), currency },
  );
}

/** The server's totals for the currencies of `request`, for a log line. */
export function capTotals(caps: Record<Currency, SpendingCap>, sessionAtomic: bigint, request: { lines: Array<{ currency: Currency }> }): string {
  const currencies = [...new Set(request.lines.map((l) => l.currency))];
  return currencies
    .map((currency) => {
      const held = caps[currency].reserved;
      return `server total ${money(caps[currency].spent, currency)}${held ? ` + ${money(held, currency)} reserved` : ''} of ${money(sessionAtomic, currency)}`;
    })
    .join('; ');
}

/** What a spend moves per currency (a currency on several lines summed). */
export function perCurrency(request: SpendRequest): Map<Currency, bigint> {
  const sums = new Map<Currency, bigint>();
  for (const { currency, atomic } of request.lines) sums.set(currency, (sums.get(currency) ?? 0n) + atomic);
  return sums;
}

/**
 * Settles what `known` says of a spend's held lines (`held`, minus the currencies already
 * `settled`): spent, committed at its charge (a currency nobody reserved, a fee burnt, recorded);
 * nothing, released; pending, kept; what was counted added to `counted` (the journal's `settled`
 * record names it, for the other servers on a shared store). True when anything was counted as spent.
 */
export function settleLines(
  caps: Record<Currency, SpendingCap>,
  spend: { held: Map<Currency, Reservation>; settled: Set<Currency>; counted?: Map<Currency, bigint> | undefined },
  known: Known,
): boolean {
  let counted = false;
  for (const [currency, outcome] of Object.entries(known.outcomes) as Array<[Currency, Outcome]>) {
    if (outcome.state === 'pending' || spend.settled.has(currency)) continue;
    spend.settled.add(currency);
    const held = spend.held.get(currency);
    spend.held.delete(currency);
    if (outcome.state === 'spent') {
      // The charge once known; a currency nobody reserved (a fee burnt) still counts.
      const charge = outcome.atomic ?? held?.amount ?? 0n;
      if (held) held.commit(charge > 0n ? charge : 0n);
      else caps[currency].record(charge);
      if (charge > 0n) spend.counted?.set(currency, (spend.counted.get(currency) ?? 0n) + charge);
      counted = true;
    } else held?.release();
  }
  return counted;
}
