/**
 * One action of one rule: price it (no spend), check the limits against the journal, journal the
 * intent, act through the SDK with the window's Idempotency-Key, journal the outcome. This is the
 * "step in flight" that a stop (SIGTERM) lets finish.
 *
 * The limits are counted again, and the intent written, under the journal's lock
 * (`RulesJournal.exclusive`): runners sharing one journal (one file, or one database on several
 * hosts) see each other's intents before they count, so together they spend no more than the
 * limit and act once per window. Each order is journaled (`ordering`: its key and request)
 * before it is placed, so a lost answer can be looked up by its key (`resolve.ts`).
 * @module
 */
import { TrxRentError, outcomeOf } from '../../errors/index.js';
import { LIMITS } from '../../schemas/limits.js';
import type { OrderRequest, RulesJournal, RulesJournalEntry } from './journal.js';
import { type LimitState, blockedBy, limitState } from './limits.js';
import type { Notifier, RuleEventName } from './notify.js';
import type { Rule } from './schema.js';
import { grouped as fmt, idempotencyKey, targetAddress } from './triggers.js';
import type { RulesClient } from './types.js';

/** What one evaluation decided for a rule. */
export type Decision = {
  rule: string;
  window: string;
  /** acted: spent (or notified); would_act: a dry run or plan; suppressed: a limit or guard said no; nothing: nothing missing; error: it failed. */
  outcome: 'acted' | 'would_act' | 'suppressed' | 'nothing' | 'error' | 'unknown';
  reason?: string | undefined;
  cost_sun?: number | undefined;
  order_ids?: string[] | undefined;
  key?: string | undefined;
  /** A human line: what was or would be bought. */
  summary?: string | undefined;
  detail?: Record<string, unknown> | undefined;
  /** A webhook of this decision that failed or was not sent (e.g. its secret variable unset), as journaled. */
  notify_error?: string | undefined;
};

/** What {@link actOn} needs from its runner. */
export interface ActContext {
  client: RulesClient;
  journal: RulesJournal;
  notifier: Notifier;
  now: () => number;
  runner: string;
  dryRun: boolean;
  /** Journal a suppression only once per rule, window and reason. */
  seen: Set<string>;
  /** Give up waiting for a fill after this long. */
  timeoutMs: number;
  /** Webhook failures since the runner last took them (it adds them to the decision they belong to). */
  notifyErrors: string[];
}

type Priced = { cost_sun: number; price_sun: number; summary: string; nothing?: boolean; units?: number };

async function price(ctx: ActContext, rule: Rule, copyOf?: { amount: number; resource: 'ENERGY' | 'BANDWIDTH' }): Promise<Priced> {
  const a = rule.action;
  const target = targetAddress(rule);
  if (a.type === 'notify') return { cost_sun: 0, price_sun: 0, summary: 'notify' };
  if (a.type === 'ensure') {
    const plan = await ctx.client.chain.plan({ address: target!, energy: a.energy ?? 0, bandwidth: a.bandwidth, duration: a.duration });
    if (!plan.rentals.length) {
      const has = [
        a.energy !== undefined && `energy ${fmt(plan.before.energy)} ≥ ${fmt(a.energy)} wanted`,
        a.bandwidth !== undefined && `bandwidth ${fmt(plan.before.bandwidth)} ≥ ${fmt(a.bandwidth)} wanted`,
      ].filter(Boolean);
      return { cost_sun: 0, price_sun: 0, summary: `${target} has ${has.join(' and ')}: nothing to buy`, nothing: true };
    }
    const what = plan.rentals.map((r) => `${r.amount} ${r.resource.toLowerCase()}`).join(' and ');
    return {
      cost_sun: plan.cost_sun,
      price_sun: Math.max(...plan.rentals.map((r) => r.price_sun)),
      units: plan.rentals.reduce((n, r) => n + r.amount, 0),
      summary: `ensure: rent ${what} to ${target} for ${a.duration} s`,
    };
  }
  // TRON refuses a delegation to a contract or to no account: refused here, before it is priced or ordered.
  await ctx.client.chain.checkTarget?.(target!);
  const resource = copyOf?.resource ?? a.resource;
  const amount = Math.max(copyOf?.amount ?? a.amount, resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT);
  const preview = await ctx.client.orders.preview({ resource, amount, duration: a.duration });
  if (!preview.best) throw new TrxRentError({ code: 'PROVIDER_UNAVAILABLE', message: `No provider can rent ${amount} ${resource} now` });
  const cost = Math.ceil(Number(preview.best.price_sun) * amount);
  return { cost_sun: cost, price_sun: Number(preview.best.price_sun), summary: `buy ${amount} ${resource.toLowerCase()} for ${target} for ${a.duration} s` };
}

/** The rules' reading of the one verdict (`outcomeOf`): not sent is `failed`; sent or unknown count as spent. */
function outcomeOfAction(error: unknown): 'failed' | 'unknown' {
  return outcomeOf(error) === 'not_sent' ? 'failed' : 'unknown';
}

async function record(ctx: ActContext, ...entries: Omit<RulesJournalEntry, 'ts' | 'runner'>[]): Promise<void> {
  const ts = ctx.now();
  await ctx.journal.append(...entries.map((entry) => ({ ts, runner: ctx.runner, ...entry })));
}

async function emit(ctx: ActContext, rule: Rule, event: RuleEventName, data: Record<string, unknown>, force = false): Promise<void> {
  const failure = await ctx.notifier.send(rule, { event, data: { rule: rule.id, ...data }, timestamp: Math.floor(ctx.now() / 1000) }, force);
  if (failure) {
    ctx.notifyErrors.push(failure);
    await record(ctx, { kind: 'notified', rule: rule.id, reason: failure, detail: { event } });
  }
}

async function suppress(ctx: ActContext, rule: Rule, window: string, reason: string, detail?: Record<string, unknown>): Promise<Decision> {
  const once = `${rule.id}\n${window}\n${reason}`;
  if (!ctx.dryRun && !ctx.seen.has(once)) {
    ctx.seen.add(once);
    await record(ctx, { kind: 'suppressed', rule: rule.id, window, reason, detail });
    if (reason === 'max_total_spend' || reason === 'expires_at') {
      await record(ctx, { kind: 'retired', rule: rule.id, reason });
      await emit(ctx, rule, 'rule.retired', { reason });
    } else await emit(ctx, rule, 'rule.suppressed', { window, reason, ...detail });
  }
  return { rule: rule.id, window, outcome: 'suppressed', reason, detail };
}

/**
 * Act on `rule` for `window` (its trigger fired), within the rule's limits. `copyOf` renews a
 * rental (delegation_expiring with a buy action): same amount and resource.
 */
export async function actOn(
  ctx: ActContext,
  rule: Rule,
  window: string,
  seen: Record<string, unknown>,
  copyOf?: { amount: number; resource: 'ENERGY' | 'BANDWIDTH' },
): Promise<Decision> {
  await ctx.journal.sync();
  const now = ctx.now();
  const state = limitState(ctx.journal.index, rule, now);
  // Cheap checks first: nothing is read when the rule could not act anyway.
  if (ctx.seen.has(`${rule.id}\n${window}\nduplicate`)) return { rule: rule.id, window, outcome: 'suppressed', reason: 'duplicate_window' };
  const early = blockedBy(rule, state, now, window, 0);
  if (early) return early === 'window_done' ? { rule: rule.id, window, outcome: 'suppressed', reason: early } : suppress(ctx, rule, window, early);
  const priced = await price(ctx, rule, copyOf);
  if (priced.nothing) return { rule: rule.id, window, outcome: 'nothing', summary: priced.summary };
  const { max_price } = rule.limits;
  if (max_price !== undefined && priced.price_sun > max_price)
    return suppress(ctx, rule, window, 'max_price', { price_sun: priced.price_sun, max_price_sun: max_price });
  const blocked = blockedBy(rule, state, now, window, priced.cost_sun);
  if (blocked)
    return suppress(ctx, rule, window, blocked, { cost_sun: priced.cost_sun, spent_24h_sun: state.spent_24h_sun, spent_total_sun: state.spent_total_sun });
  const key = idempotencyKey(rule, window);
  if (ctx.dryRun) return { rule: rule.id, window, outcome: 'would_act', cost_sun: priced.cost_sun, key, summary: priced.summary };

  const a = rule.action;
  const target = targetAddress(rule);
  // Another runner's order for this address still in flight: its delegation is not on the node yet.
  if (a.type !== 'notify') {
    const open = await ctx.client.orders.list({ limit: 50 });
    const busy = open.orders.find((o) => o.target_address === target && (o.status === 'PENDING' || o.status === 'EXECUTING'));
    if (busy) return suppress(ctx, rule, window, 'order_in_flight', { order_id: busy.id });
  }
  // Count again and write the intent under the journal's lock: another runner sharing the journal
  // (this host or another) either wrote its intent before (and is counted here), or counts this one.
  const counted = await ctx.journal.exclusive(async (): Promise<{ blocked: string; state: LimitState } | { cap: number | undefined }> => {
    await ctx.journal.sync();
    const at = ctx.now();
    const locked = limitState(ctx.journal.index, rule, at);
    const no = blockedBy(rule, locked, at, window, priced.cost_sun);
    if (no) return { blocked: no, state: locked };
    // The cap handed to the SDK: the order can never take the rule past its limits, whatever the market does.
    // With max_price, the cap also holds the price per unit (ensure splits the cap over its orders).
    const byPrice = max_price !== undefined && priced.units ? Math.floor(max_price * priced.units) : undefined;
    const caps = [locked.remaining_sun, byPrice].filter((v): v is number => v !== undefined);
    const cap = caps.length ? Math.min(...caps) : undefined;
    await record(
      ctx,
      { kind: 'trigger', rule: rule.id, window, detail: seen },
      {
        kind: 'intent',
        rule: rule.id,
        window,
        key,
        reserved_sun: cap ?? priced.cost_sun,
        detail: { summary: priced.summary, quoted_sun: priced.cost_sun, orders_journaled: true },
      },
    );
    return { cap };
  });
  if ('blocked' in counted) {
    const late = counted.blocked;
    if (late === 'window_done') return { rule: rule.id, window, outcome: 'suppressed', reason: late };
    return suppress(ctx, rule, window, late, {
      cost_sun: priced.cost_sun,
      spent_24h_sun: counted.state.spent_24h_sun,
      spent_total_sun: counted.state.spent_total_sun,
    });
  }
  const cap = counted.cap;
  // Written down before each order is placed: a lost answer is looked up by this key and request.
  const ordering = (orderKey: string | undefined, request: OrderRequest) =>
    record(ctx, { kind: 'ordering', rule: rule.id, window, key, order_key: orderKey ?? key, request: { ...request } });
  try {
    let cost = 0;
    let orderIds: string[] = [];
    if (a.type === 'notify') {
      await emit(ctx, rule, 'rule.action', { window, message: a.message ?? '', seen }, true);
    } else if (a.type === 'ensure') {
      const result = await ctx.client.chain.ensure({
        address: target!,
        energy: a.energy ?? 0,
        bandwidth: a.bandwidth,
        duration: a.duration,
        maxCostSun: cap,
        idempotencyKey: key,
        timeoutMs: ctx.timeoutMs,
        beforeOrder: (o) => ordering(o.key, o.request),
      });
      cost = result.cost_sun;
      orderIds = [result.order?.id, result.bandwidth_order?.id].filter((id): id is string => typeof id === 'string');
    } else {
      const resource = copyOf?.resource ?? a.resource;
      const amount = Math.max(copyOf?.amount ?? a.amount, resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT);
      const maxPrice = cap === undefined ? max_price : Math.min(max_price ?? Infinity, Math.floor(cap / amount));
      if (maxPrice !== undefined && maxPrice <= 0) throw new TrxRentError({ code: 'SPENDING_CAP_EXCEEDED', message: 'no budget left' });
      const request: OrderRequest = {
        resource_type: resource,
        amount,
        duration_sec: a.duration,
        target_address: target!,
        ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
      };
      await ordering(key, request);
      const created = await ctx.client.orders.create(request as Parameters<RulesClient['orders']['create']>[0], { idempotencyKey: key });
      const filled = await ctx.client.orders.waitFor(created.id, { timeoutMs: ctx.timeoutMs });
      cost = Number(filled.total_cost_sun ?? priced.cost_sun);
      orderIds = [filled.id];
    }
    await record(ctx, { kind: 'done', rule: rule.id, window, key, cost_sun: cost, order_ids: orderIds });
    if (a.type !== 'notify') await emit(ctx, rule, 'rule.action', { window, key, cost_sun: cost, order_ids: orderIds, summary: priced.summary });
    return { rule: rule.id, window, outcome: 'acted', cost_sun: cost, order_ids: orderIds, key, summary: priced.summary };
  } catch (error) {
    const code = error instanceof TrxRentError ? error.code : 'ERROR';
    if (code === 'DUPLICATE_REQUEST') {
      // The key is in use for this window with other parameters: another runner acted (or is acting) for it.
      await record(ctx, { kind: 'failed', rule: rule.id, window, key, reason: 'DUPLICATE_REQUEST: another runner acted for this window' });
      ctx.seen.add(`${rule.id}\n${window}\nduplicate`);
      return { rule: rule.id, window, outcome: 'suppressed', reason: 'duplicate_window', key };
    }
    const outcome = outcomeOfAction(error);
    const reason = `${code}: ${(error as Error).message}`;
    await record(ctx, { kind: outcome, rule: rule.id, window, key, reason });
    await emit(ctx, rule, 'rule.error', { window, key, reason, outcome });
    return { rule: rule.id, window, outcome: outcome === 'failed' ? 'error' : 'unknown', reason, key };
  }
}
