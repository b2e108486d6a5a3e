/**
 * `resources.ensure`: buy only an address's deficit (rounded up to the provider minimum), under
 * the call's cap, wait until the order is FILLED and the delegation shows on the node; one ensure
 * per address at a time, within one total deadline. A target no delegation can reach (no account,
 * a contract: `target.ts`) is refused before anything is ordered, or activated first when the
 * caller gives a funding signer (`activate.ts`). An order that fails says why (its
 * failure_reason, or what the node shows of the target).
 * @module
 */
import { OrderFailedError, TrxRentError } from '../errors/index.js';
import { Orders } from '../resources/orders.js';
import { LIMITS } from '../schemas/limits.js';
import type { Order } from '../schemas/orders.js';
import { pollUntil } from '../utils/clock.js';
import { SpendingCap } from '../utils/spending-cap.js';
import { type Deadline, startDeadline } from './deadline.js';
import { ENSURE_LOCKS } from './mutex.js';
import { type Spendable, spendable } from './node.js';
import { activateAccount, planActivation } from './activate.js';
import { checkRentalTarget, isContractTarget, notActivated, readTarget } from './target.js';
import type { ActivationPlan, EngineDeps, EnsureParams, EnsurePlan, EnsureResult, RentalQuote } from './types.js';
import { DEFAULT_DURATION_SEC, DEFAULT_TIMEOUT_MS, address, checkAbort, invalid, optionalSun, positiveInt, quote } from './inputs.js';

async function prepareEnsure(deps: EngineDeps, params: EnsureParams) {
  const target = address(params?.address, 'address');
  const energy = positiveInt(params.energy, 'energy', true);
  const bandwidth = params.bandwidth === undefined ? 0 : positiveInt(params.bandwidth, 'bandwidth', true);
  const duration = params.duration === undefined ? DEFAULT_DURATION_SEC : positiveInt(params.duration, 'duration');
  const maxCost = optionalSun(params.maxCostSun, 'maxCostSun');
  const key = params.idempotencyKey;
  if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH - 3)) {
    throw invalid('idempotencyKey', `must be 1 to ${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH - 3} characters`);
  }
  const orders = new Orders(deps.http);
  // A delegation to a contract or to no account is refused on chain: refuse it here, before any order.
  const found = await checkRentalTarget(deps.node, target, { signal: params.signal, allowInactive: params.activate !== undefined });
  let activation: ActivationPlan | null = null;
  let before: Spendable;
  if (found.activated) before = spendable(await deps.node.getAccountResource(target, { signal: params.signal }));
  else {
    activation = await planActivation(deps, { address: target, signer: params.activate!.signer, amountSun: params.activate!.amountSun, signal: params.signal });
    // Once activated it has no energy and the daily free bandwidth.
    const free = (await deps.node.getChainParameters({ signal: params.signal })).get('getFreeNetLimit') ?? 0;
    before = { energy: 0, bandwidth: free, freeBandwidth: free };
  }
  const rentals: RentalQuote[] = [];
  const energyDeficit = Math.max(0, energy - before.energy);
  const bandwidthDeficit = Math.max(0, bandwidth - before.bandwidth);
  if (energyDeficit > 0) rentals.push(await quote(orders, 'ENERGY', energyDeficit, duration, params.signal));
  if (bandwidthDeficit > 0) rentals.push(await quote(orders, 'BANDWIDTH', bandwidthDeficit, duration, params.signal));
  const plan: EnsurePlan = { address: target, activation, before, rentals, cost_sun: rentals.reduce((sum, q) => sum + q.cost_sun, 0) };
  return { target, energy, bandwidth, duration, maxCost, key, orders, plan };
}

/**
 * An order that ended other than FILLED, with why: the service's `failure_reason` when its answer
 * carries one (the spec shows none), else what the node shows of the target (not activated, a
 * contract: the chain refused the delegation). `details.outcome` is 'refused': the order is
 * final, nothing was charged for it, and the same idempotency key only finds it again.
 */
async function whyFailed(deps: EngineDeps, error: OrderFailedError, target: string, signal: AbortSignal | undefined): Promise<TrxRentError> {
  const order = (error.order ?? {}) as { id?: unknown; status?: unknown; failure_reason?: unknown; failure_message?: unknown };
  let reason = typeof order.failure_reason === 'string' && order.failure_reason ? order.failure_reason : undefined;
  let why = typeof order.failure_message === 'string' && order.failure_message ? order.failure_message : undefined;
  if (!reason) {
    const found = await readTarget(deps.node, target, { signal }).catch(() => undefined);
    const refusal = found?.contract ? isContractTarget(target) : found && !found.activated ? notActivated(target) : undefined;
    if (refusal) {
      reason = refusal.code;
      why = refusal.message;
    }
  }
  if (!reason) return error;
  return new TrxRentError({
    code: 'ORDER_FAILED',
    message: `Order ${String(order.id)} ${String(order.status ?? 'FAILED')}: ${reason}${why ? ` (${why})` : ''}`,
    details: { ...error.details, order_id: order.id, failure_reason: reason, ...(why ? { failure_message: why } : {}), outcome: 'refused' },
    cause: error,
  });
}

/** What `client.chain.ensure` would buy now and what it would cost (reads and previews; orders nothing). */
export async function planEnsure(deps: EngineDeps, params: EnsureParams): Promise<EnsurePlan> {
  return (await prepareEnsure(deps, params)).plan;
}

/** How `transfers.send` runs an ensure inside its own call: its order keys and deadline. */
export interface EnsureInternals {
  /** Idempotency-Key of the energy order and of the bandwidth order (`K:energy`, `K:bw`). */
  orderKeys?: { energy: string; bandwidth: string } | undefined;
  /** The caller's deadline (send's total timeout). */
  deadline?: Deadline | undefined;
  /**
   * Asked at each look at the node while waiting for the delegation: true ends the wait at once
   * with what the node shows (send: another process signed this key's transfer meanwhile, and its
   * transaction may have used the delegation up; the caller lands that one instead).
   */
  needless?: (() => Promise<boolean>) | undefined;
}

/** Attach what is known (stage, order id, keys) to an error from a step that may have had an effect. */
export function withDetails(error: unknown, extra: Record<string, unknown>): unknown {
  if (error instanceof TrxRentError || (error instanceof Error && 'details' in error)) {
    const known = (error as { details?: Record<string, unknown> }).details ?? {};
    // The first stage that caught it is the one that knows best; later layers only add.
    (error as { details: Record<string, unknown> }).details = { ...extra, ...known, ...('stage' in known ? {} : { stage: extra.stage }) };
    return error;
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new TrxRentError({ code: 'CANCELLED', message: `Cancelled (${String(extra.stage)} stage)`, details: extra, cause: error });
  }
  return error;
}

/**
 * Make sure `address` can spend `energy` (and `bandwidth`): read what it has on the node, buy
 * only the deficit (rounded up to the provider minimum), wait until the order is FILLED and the
 * delegation shows on the node. Finding enough already, it buys nothing. One process runs one
 * ensure per address at a time (a second waits, then finds the first one's delegation).
 * `timeoutMs` bounds the whole call. With `maxCostSun`, every order carries `max_price_sun`,
 * and a fill charged above the cap is an error (SPENDING_CAP_EXCEEDED naming the order).
 */
export async function ensureResources(deps: EngineDeps, params: EnsureParams, internals: EnsureInternals = {}): Promise<EnsureResult> {
  const target = address(params?.address, 'address');
  const clock = deps.http.clock;
  const timeoutMs = params.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = internals.deadline ?? startDeadline(clock, positiveInt(timeoutMs, 'timeoutMs'), params.signal);
  const run = () => ensureLocked(deps, { ...params, signal: deadline.signal }, internals, deadline);
  try {
    return await ENSURE_LOCKS.run(target, run, deadline.signal);
  } catch (error) {
    throw deadline.translate(error, `resources.ensure for ${target} did not finish within ${timeoutMs} ms`);
  }
}

async function ensureLocked(deps: EngineDeps, params: EnsureParams, internals: EnsureInternals, deadline: Deadline): Promise<EnsureResult> {
  const { target, energy, bandwidth, duration, maxCost, key, orders, plan } = await prepareEnsure(deps, params);
  const { signal, onProgress } = params;
  const { before, rentals: quotes, cost_sun: quoted } = plan;
  // The call's cap is the shared primitive's per-call limit (utils/spending-cap.ts), as the x402 budget and the MCP guard.
  if (maxCost !== undefined && new SpendingCap({ perCall: BigInt(maxCost) }).refusal(BigInt(quoted)) !== undefined) {
    throw new TrxRentError({
      code: 'SPENDING_CAP_EXCEEDED',
      message: `Renting ${quotes.map((q) => `${q.amount} ${q.resource}`).join(' and ')} costs ${quoted} SUN now, above the cap of ${maxCost} SUN; nothing was ordered`,
      details: { cost_sun: quoted, max_cost_sun: maxCost },
    });
  }
  if ((quotes.length || plan.activation) && params.confirm && !(await params.confirm(plan))) {
    throw new TrxRentError({ code: 'CANCELLED', message: 'Cancelled before anything was ordered' });
  }
  const result: EnsureResult = {
    address: target,
    activation: null,
    before,
    after: before,
    order: null,
    bandwidth_order: null,
    bought: { energy: 0, bandwidth: 0 },
    cost_sun: 0,
  };
  if (plan.activation) {
    checkAbort(signal);
    try {
      result.activation =
        (await activateAccount(deps, {
          address: target,
          signer: params.activate!.signer,
          amountSun: plan.activation.amount_sun,
          signal,
          deadline: deadline.at,
        })) ?? null;
    } catch (error) {
      throw withDetails(error, { stage: 'activation' });
    }
    onProgress?.({ step: 'activated', activation: result.activation });
  }
  for (const q of quotes) {
    checkAbort(signal);
    // With a cap, the price per unit is capped too, so a market move cannot take the order past
    // it; a quote of 0 still shares the cap out (by amount), so the cap always reaches the service.
    const capShare =
      maxCost === undefined
        ? undefined
        : quoted > 0
          ? Math.floor((maxCost * q.cost_sun) / quoted)
          : Math.floor((maxCost * q.amount) / quotes.reduce((n, r) => n + r.amount, 0));
    const maxPrice = capShare === undefined ? undefined : capShare / q.amount;
    if (maxPrice !== undefined && !(maxPrice > 0)) {
      throw new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `A cap of ${maxCost} SUN leaves no price per unit for ${q.amount} ${q.resource}; nothing was ordered`,
        details: { field: 'maxCostSun', max_cost_sun: maxCost },
      });
    }
    const orderKey = internals.orderKeys
      ? q.resource === 'ENERGY'
        ? internals.orderKeys.energy
        : internals.orderKeys.bandwidth
      : key === undefined
        ? undefined
        : q.resource === 'ENERGY'
          ? key
          : `${key}:bw`;
    const request = {
      resource_type: q.resource,
      amount: q.amount,
      duration_sec: duration,
      target_address: target,
      ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
    };
    await params.beforeOrder?.({ key: orderKey, request });
    let created: Order;
    try {
      created = await orders.create(request, { signal, idempotencyKey: orderKey, timeoutMs: deadline.budget() });
    } catch (error) {
      // The request may have created the order: its key finds it again without buying twice.
      throw withDetails(error, { stage: 'order', ...(orderKey ? { order_key: orderKey } : {}) });
    }
    onProgress?.({ step: 'ordered', order: created });
    let filled: Order;
    try {
      filled = await orders.waitFor(created.id, { signal, timeoutMs: Math.max(1, deadline.left()), pollIntervalMs: 250, maxPollIntervalMs: 2_000 });
    } catch (error) {
      const failed = error instanceof OrderFailedError ? await whyFailed(deps, error, target, signal) : error;
      throw withDetails(failed, { stage: 'delegation', order_id: created.id, ...(orderKey ? { order_key: orderKey } : {}) });
    }
    onProgress?.({ step: 'filled', order: filled });
    const charged = Number(filled.total_cost_sun ?? q.cost_sun);
    if (capShare !== undefined && charged > capShare) {
      throw new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `Order ${filled.id} was charged ${charged} SUN, above its share of the cap (${capShare} of ${maxCost} SUN); stopped here`,
        details: { stage: 'order', order_id: filled.id, charged_sun: charged, max_cost_sun: maxCost, cap_share_sun: capShare },
      });
    }
    if (q.resource === 'ENERGY') {
      result.order = filled;
      result.bought.energy = q.amount;
    } else {
      result.bandwidth_order = filled;
      result.bought.bandwidth = q.amount;
    }
    result.cost_sun += charged;
  }
  if (quotes.length === 0) return result;

  // FILLED is the service's word; the node's is the one a transaction will meet.
  const orderIds = { order_id: result.order?.id ?? result.bandwidth_order?.id };
  let needless = false;
  try {
    result.after = await pollUntil<Spendable>(
      async () => {
        const now = spendable(await deps.node.getAccountResource(target, { signal, timeoutMs: deadline.budget() }));
        if (now.energy >= energy && now.bandwidth >= bandwidth) return { done: true, value: now };
        needless = (await internals.needless?.()) === true;
        return needless ? { done: true, value: now } : { done: false, last: now };
      },
      {
        timeoutMs: deadline.left(),
        clock: deps.http.clock,
        signal,
        intervalMs: 250,
        maxIntervalMs: 2_000,
        factor: 2,
        timeoutMessage: (last) => {
          const now = last as Spendable | undefined;
          return `The order is FILLED but ${target} can spend only ${now?.energy ?? 0} energy and ${now?.bandwidth ?? 0} bandwidth on the node (wanted ${energy} and ${bandwidth}) after ${params.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`;
        },
      },
    );
  } catch (error) {
    throw withDetails(error, { stage: 'delegation', ...orderIds });
  }
  if (!needless) onProgress?.({ step: 'delegated', after: result.after });
  return result;
}
