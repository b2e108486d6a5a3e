/**
 * Settling an unknown outcome before it counts as anything but its reservation. An action whose
 * answer never came counts as spent at its cap; the runner looks it up at the start of each tick:
 *
 * - by key: each order the action was about to place was journaled first (`ordering`: its
 *   Idempotency-Key and request), so sending that request again with that key returns the order
 *   the service placed for it (the service keeps a key 24 h; a replay is only sent within half of
 *   that). FILLED is journaled `done` at its real cost, an order that ended otherwise or a request
 *   refused outright costs nothing, a PENDING one stays counted at the reservation. An action
 *   that journaled no order placed none. If the first request never arrived, the replay places
 *   it now: the action happens late, within the reservation already counted.
 * - older intents (written before orders were journaled): the service's orders for the rule's
 *   address created around the intent and not journaled by any other action; none means nothing
 *   was ordered.
 *
 * An action is looked up once its runner gave up (an `unknown` line) or its fill time has passed
 * (a runner that died mid-action, found by a standby): never while another runner may still be
 * placing it.
 * @module
 */
import { outcomeOf } from '../../errors/index.js';
import { TrxRentError } from '../../errors/index.js';
import { LIMITS } from '../../schemas/limits.js';
import type { ActContext } from './act.js';
import type { ActionRecord, OrderRequest } from './journal.js';
import type { Rule } from './schema.js';
import { targetAddress } from './triggers.js';
import type { RulesClient } from './types.js';

/** Slack around the intent's time when matching an order's `created_at` (clocks differ). */
const SLACK_MS = 60_000;
const FAILED = new Set(['FAILED', 'CANCELLED', 'EXPIRED', 'PARTIALLY_FILLED', 'REFUNDED']);

function timeOf(value: unknown): number {
  return typeof value === 'number' ? value * (value < 1e12 ? 1000 : 1) : Date.parse(String(value));
}

type Looked = { state: 'filled'; id: string; cost: number } | { state: 'none'; id?: string | undefined; why: string } | { state: 'pending' };

/** One journaled order, looked up by sending its request again with its key. */
async function lookUp(client: RulesClient, order: { key: string; request: OrderRequest }): Promise<Looked> {
  let id: string;
  try {
    id = (await client.orders.create(order.request as Parameters<RulesClient['orders']['create']>[0], { idempotencyKey: order.key })).id;
  } catch (error) {
    // The key is in use by a request still being processed: its answer is not known yet.
    if (error instanceof TrxRentError && error.code === 'DUPLICATE_REQUEST') return { state: 'pending' };
    // A definite refusal of the replay: a request that failed frees its key, so no order stands under it.
    if (outcomeOf(error) === 'not_sent')
      return { state: 'none', why: `the request is refused (${error instanceof TrxRentError ? error.code : (error as Error).message})` };
    return { state: 'pending' };
  }
  const full = await client.orders.get(id);
  const status = String(full.status);
  if (status === 'FILLED') return { state: 'filled', id, cost: Number(full.total_cost_sun ?? 0) };
  if (FAILED.has(status)) return { state: 'none', id, why: `order ${id} ${status}` };
  return { state: 'pending' };
}

/** Settle what can be settled of `rules`' unknown actions; returns how many were. */
export async function settleUnknown(ctx: ActContext, rules: readonly Rule[]): Promise<number> {
  await ctx.journal.sync();
  const now = ctx.now();
  const byId = new Map(rules.map((r) => [r.id, r]));
  const pending = ctx.journal.index
    .unknown()
    .filter(({ rule }) => byId.get(rule) && byId.get(rule)!.action.type !== 'notify')
    .filter(({ action }) => action.gave_up || now - action.ts > ctx.timeoutMs + SLACK_MS)
    .map(({ rule, action }) => ({ rule: byId.get(rule)!, action: { ...action } }));
  if (!pending.length) return 0;
  let resolved = 0;
  const legacy: { rule: Rule; action: ActionRecord }[] = [];
  for (const { rule, action } of pending) {
    const base = { ts: ctx.now(), runner: ctx.runner, rule: rule.id, window: action.window, key: action.key };
    if (!action.by_key || now - action.ts >= LIMITS.IDEMPOTENCY_TTL_MS / 2) {
      if (now - action.ts > ctx.timeoutMs) legacy.push({ rule, action });
      continue;
    }
    // Its runner may still be about to journal an order until the fill time has passed.
    if (!action.orders.length) {
      if (action.gave_up || now - action.ts > ctx.timeoutMs + SLACK_MS) {
        await ctx.journal.append({ ...base, kind: 'failed', reason: 'settled: no order was placed' });
        resolved++;
      }
      continue;
    }
    const looked = await Promise.all(action.orders.map((o) => lookUp(ctx.client, o)));
    if (looked.some((l) => l.state === 'pending')) continue;
    const filled = looked.filter((l): l is Extract<Looked, { state: 'filled' }> => l.state === 'filled');
    if (filled.length) {
      await ctx.journal.append({
        ...base,
        kind: 'done',
        cost_sun: filled.reduce((n, l) => n + l.cost, 0),
        order_ids: filled.map((l) => l.id),
        reason: 'settled by its Idempotency-Key',
      });
    } else {
      await ctx.journal.append({
        ...base,
        kind: 'failed',
        reason: `settled by its Idempotency-Key: ${looked.map((l) => (l.state === 'none' ? l.why : '')).join('; ')}`,
      });
    }
    resolved++;
  }
  return resolved + (legacy.length ? await settleFromList(ctx, legacy) : 0);
}

/** Older intents, whose orders were not journaled: matched in the service's order list by address and time. */
async function settleFromList(ctx: ActContext, pending: { rule: Rule; action: ActionRecord }[]): Promise<number> {
  const known = new Set(ctx.journal.index.orderIds);
  const page = await ctx.client.orders.list({ limit: 100 });
  let resolved = 0;
  for (const { rule, action } of pending) {
    const target = targetAddress(rule);
    const match = page.orders.find((o) => {
      const at = timeOf(o.created_at);
      return o.target_address === target && !known.has(o.id) && at >= action.ts - SLACK_MS && at <= action.ts + ctx.timeoutMs + SLACK_MS;
    });
    if (match && (match.status === 'PENDING' || match.status === 'EXECUTING')) continue;
    const base = { ts: ctx.now(), runner: ctx.runner, rule: rule.id, window: action.window, key: action.key };
    if (match?.status === 'FILLED') {
      const order = await ctx.client.orders.get(match.id);
      known.add(match.id);
      await ctx.journal.append({
        ...base,
        kind: 'done',
        cost_sun: Number(order.total_cost_sun ?? action.spent_sun),
        order_ids: [match.id],
        reason: 'resolved from the order list',
      });
    } else {
      await ctx.journal.append({
        ...base,
        kind: 'failed',
        reason: match ? `resolved: order ${match.id} ${String(match.status)}` : 'resolved: no order was created',
      });
    }
    resolved++;
  }
  return resolved;
}
