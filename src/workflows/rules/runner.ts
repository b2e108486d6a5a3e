/**
 * `RuleRunner`: one process watching many addresses within a TRON node request budget. Each tick
 * (default 60 s of its clock) it reads the next share of the watched addresses, spread evenly
 * over the tick at `nodeRequestsPerSecond` (the node's HTTP API has no batch read of account
 * resources, so one address costs one request), asks the service for the prices its rules
 * need, and acts on the triggers that fired (`act.ts`), one step at a time. Reaction time for an
 * address is `ceil(addresses / (rps × tick)) × tick`.
 *
 * All time comes from its `clock`: on the mock's manual clock (`virtualClock`) a day of rules
 * runs in seconds. `stop()` (the CLI calls it on SIGTERM) lets the step in flight finish.
 *
 * Whether it spends is the caller's explicit choice (`dryRun`, required): `false` orders and
 * journals, `true` decides and reports only, as `trx-rent rules run` does without `--execute`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../../utils/clock.js';
import { type ActContext, type Decision, actOn } from './act.js';
import { MemoryJournal, type RulesJournal } from './journal.js';
import { Notifier, type NotifyOptions, notifyWarnings } from './notify.js';
import type { Rule, RulesFile } from './schema.js';
import { settleUnknown } from './resolve.js';
import { grouped, levelWindow, nextScheduled, scheduleWindow, watchedAddress } from './triggers.js';
import type { RulesClient } from './types.js';
import { LIMITS } from '../../schemas/limits.js';

/** Options of {@link RuleRunner}. */
export interface RuleRunnerOptions {
  /** A `TrxRent` (or anything with the same orders/chain methods). */
  client: RulesClient;
  /** A parsed rules file (`loadRules` / `parseRules`). */
  rules: RulesFile;
  /** Where decisions are kept and limits counted. @default a MemoryJournal */
  journal?: RulesJournal | undefined;
  /** @default systemClock */
  clock?: Clock | undefined;
  /** Length of one evaluation tick, ms. @default 60000 */
  tickMs?: number | undefined;
  /** TRON node requests per second, spread evenly over each tick. @default 10 */
  nodeRequestsPerSecond?: number | undefined;
  /**
   * Required, so that spending is always a visible choice: `false` orders (spends) and journals,
   * `true` decides and reports only (spends nothing, journals nothing), like the CLI's
   * `rules run` without `--execute`.
   */
  dryRun: boolean;
  /** Notifications (NDJSON lines, webhook secret environment, fetch). */
  notify?: NotifyOptions | undefined;
  /** Written into every journal line. @default a random id */
  runnerId?: string | undefined;
  /** Called with every decision (acted, suppressed, would act…), for status lines. */
  onDecision?: ((decision: Decision) => void) | undefined;
  /** Give up waiting for one order's fill after this long. @default 120000 */
  actionTimeoutMs?: number | undefined;
  /** Called after each tick with the counters, for a status line. */
  onTick?: ((stats: RunnerStats) => void) | undefined;
}

/** Counters of a runner. */
export interface RunnerStats {
  ticks: number;
  node_reads: number;
  node_errors: number;
  decisions: number;
  acted: number;
  spent_sun: number;
  /** Worst-case time between two reads of one address, ms. */
  reaction_ms: number;
  watched_addresses: number;
}

/** Watches addresses and prices, and acts on standing rules without ever paying twice for one trigger window. */
export class RuleRunner {
  readonly rules: readonly Rule[];
  readonly journal: RulesJournal;
  readonly clock: Clock;
  readonly tickMs: number;
  readonly rps: number;
  readonly stats: RunnerStats;
  /** What will not work as written, known before the first tick (a webhook whose secret variable is unset). */
  readonly warnings: readonly string[];
  /** Whether this runner is spending nothing (the `dryRun` it was made with). */
  readonly dryRun: boolean;
  readonly #ctx: ActContext;
  readonly #byAddress = new Map<string, Rule[]>();
  readonly #addresses: string[];
  readonly #onDecision: ((d: Decision) => void) | undefined;
  readonly #onTick: ((stats: RunnerStats) => void) | undefined;
  #cursor = 0;
  #lastTick: number | undefined;
  #stopping = false;
  /** A plan's runner: every rule gets a decision, a quiet one saying why it is quiet. */
  #explain = false;
  #sleep = new AbortController();
  #running: Promise<void> | undefined;

  constructor(options: RuleRunnerOptions) {
    this.rules = options.rules.rules;
    this.journal = options.journal ?? new MemoryJournal();
    this.clock = options.clock ?? systemClock;
    this.tickMs = options.tickMs ?? 60_000;
    this.rps = options.nodeRequestsPerSecond ?? 10;
    if (!(this.tickMs >= 1000) || !(this.rps > 0)) throw new RangeError('tickMs must be at least 1000 and nodeRequestsPerSecond positive');
    if (typeof options.dryRun !== 'boolean') throw new TypeError('RuleRunner: dryRun is required: false to spend, true to decide and report only');
    this.dryRun = options.dryRun;
    this.warnings = notifyWarnings(options.rules, options.notify?.env);
    this.#onDecision = options.onDecision;
    this.#onTick = options.onTick;
    for (const rule of this.rules) {
      const address = watchedAddress(rule);
      if (address) this.#byAddress.set(address, [...(this.#byAddress.get(address) ?? []), rule]);
    }
    this.#addresses = [...this.#byAddress.keys()];
    const perTick = this.#perTick();
    this.stats = {
      ticks: 0,
      node_reads: 0,
      node_errors: 0,
      decisions: 0,
      acted: 0,
      spent_sun: 0,
      reaction_ms: this.#addresses.length ? Math.ceil(this.#addresses.length / perTick) * this.tickMs : 0,
      watched_addresses: this.#addresses.length,
    };
    this.#ctx = {
      client: options.client,
      journal: this.journal,
      notifier: new Notifier(options.rules, options.notify ?? {}),
      now: () => this.clock.now(),
      runner: options.runnerId ?? randomUUID().slice(0, 8),
      dryRun: options.dryRun,
      seen: new Set(),
      timeoutMs: options.actionTimeoutMs ?? 120_000,
      notifyErrors: [],
    };
  }

  /** Addresses read per tick within the node budget. */
  #perTick(): number {
    return Math.max(1, Math.min(this.#addresses.length, Math.floor((this.rps * this.tickMs) / 1000)));
  }

  #decided(d: Decision): Decision {
    const failed = this.#ctx.notifyErrors.splice(0);
    if (failed.length) d.notify_error = failed.join('; ');
    this.stats.decisions++;
    if (d.outcome === 'acted') {
      this.stats.acted++;
      this.stats.spent_sun += d.cost_sun ?? 0;
    }
    this.#onDecision?.(d);
    return d;
  }

  /** The best price per unit for `resource` over `duration` now (one preview), cached per tick. */
  async #price(cache: Map<string, Promise<number | undefined>>, resource: 'ENERGY' | 'BANDWIDTH', duration: number): Promise<number | undefined> {
    const id = `${resource}:${duration}`;
    let p = cache.get(id);
    if (!p) {
      const amount = resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT;
      p = this.#ctx.client.orders.preview({ resource, amount, duration }).then((r) => (r.best ? Number(r.best.price_sun) : undefined));
      cache.set(id, p);
    }
    return p;
  }

  /**
   * One tick: rules on prices, schedules and expiring rentals, then this tick's share of the
   * watched addresses, read at evenly spaced times. Returns every decision made.
   */
  async tick(): Promise<Decision[]> {
    const start = this.clock.now();
    const since = this.#lastTick ?? start - this.tickMs;
    this.#lastTick = start;
    this.stats.ticks++;
    const out: Decision[] = [];
    const prices = new Map<string, Promise<number | undefined>>();
    if (!this.#ctx.dryRun) {
      try {
        await settleUnknown(this.#ctx, this.rules);
      } catch (error) {
        out.push(
          this.#decided({ rule: this.rules[0]?.id ?? '', window: '', outcome: 'error', reason: `settling unknown outcomes: ${(error as Error).message}` }),
        );
      }
    }
    let filled:
      | Promise<Array<{ id: string; target_address: string; resource_type: string; amount: number; duration_sec: number; filled_at?: unknown }>>
      | undefined;
    for (const rule of this.rules) {
      if (this.#stopping) return out;
      const t = rule.trigger;
      try {
        if (t.type === 'price_below') {
          const p = await this.#price(prices, t.resource, t.duration);
          if (p !== undefined && p < t.price_sun) out.push(this.#decided(await actOn(this.#ctx, rule, levelWindow(rule, start), { price_sun: p })));
          else if (this.#explain) {
            const why =
              p === undefined
                ? `no provider quotes ${t.resource.toLowerCase()} now: nothing to do`
                : `price ${grouped(p)} SUN ≥ level ${grouped(t.price_sun)} SUN: nothing to do`;
            out.push(this.#decided(quiet(rule, why, { price_sun: p, level_sun: t.price_sun })));
          }
        } else if (t.type === 'schedule') {
          const window = scheduleWindow(t, since, start);
          if (window) out.push(this.#decided(await actOn(this.#ctx, rule, window, { cron: t.cron })));
          else if (this.#explain) {
            const next = nextScheduled(t, start);
            const when = next === undefined ? 'not within a year' : `next at ${new Date(next).toISOString().slice(0, 16)}Z`;
            out.push(
              this.#decided(
                quiet(rule, `schedule "${t.cron}" (${t.timezone}) not due: ${when}`, {
                  next_at: next === undefined ? undefined : new Date(next).toISOString(),
                }),
              ),
            );
          }
        } else if (t.type === 'delegation_expiring') {
          filled ??= this.#ctx.client.orders.list({ status: 'FILLED', limit: 100 }).then((page) => page.orders as never);
          const before = out.length;
          let tooDear: number | undefined;
          for (const order of await filled) {
            if (order.target_address !== t.address || order.resource_type !== t.resource || order.filled_at == null) continue;
            const filledAt = typeof order.filled_at === 'number' ? order.filled_at * (order.filled_at < 1e12 ? 1000 : 1) : Date.parse(String(order.filled_at));
            const ends = filledAt + Number(order.duration_sec) * 1000;
            const now = this.clock.now();
            if (!(ends > now && ends - now <= t.minutes_before * 60_000)) continue;
            if (t.below_price_sun !== undefined) {
              const p = await this.#price(prices, t.resource, Number(order.duration_sec));
              if (p === undefined || p >= t.below_price_sun) {
                tooDear = p;
                continue;
              }
            }
            out.push(
              this.#decided(
                await actOn(
                  this.#ctx,
                  rule,
                  `renew:${order.id}`,
                  { order_id: order.id, ends_at: new Date(ends).toISOString() },
                  { amount: Number(order.amount), resource: t.resource },
                ),
              ),
            );
          }
          if (this.#explain && out.length === before) {
            const rental = `${t.resource === 'ENERGY' ? 'an energy' : 'a bandwidth'} rental to ${t.address}`;
            const why =
              tooDear !== undefined
                ? `${rental} ends within ${t.minutes_before} min, but the price ${grouped(tooDear)} SUN ≥ level ${grouped(t.below_price_sun!)} SUN: nothing to do`
                : `no ${rental.slice(rental.indexOf(' ') + 1)} ends within ${t.minutes_before} min: nothing to do`;
            out.push(this.#decided(quiet(rule, why, { minutes_before: t.minutes_before })));
          }
        }
      } catch (error) {
        out.push(this.#decided({ rule: rule.id, window: '', outcome: 'error', reason: (error as Error).message }));
      }
    }
    const perTick = this.#perTick();
    const gap = 1000 / this.rps;
    for (let i = 0; i < perTick && this.#addresses.length; i++) {
      if (this.#stopping) break;
      const wait = start + i * gap - this.clock.now();
      if (wait > 0) await this.#nap(wait);
      if (this.#stopping) break;
      const address = this.#addresses[this.#cursor]!;
      this.#cursor = (this.#cursor + 1) % this.#addresses.length;
      let have: Awaited<ReturnType<RulesClient['chain']['read']>>;
      try {
        this.stats.node_reads++;
        have = await this.#ctx.client.chain.read(address);
      } catch (error) {
        this.stats.node_errors++;
        out.push(this.#decided({ rule: this.#byAddress.get(address)![0]!.id, window: '', outcome: 'error', reason: `node: ${(error as Error).message}` }));
        continue;
      }
      for (const rule of this.#byAddress.get(address)!) {
        const t = rule.trigger;
        const low = t.type === 'energy_below' ? have.energy < t.energy : t.type === 'bandwidth_below' ? have.bandwidth < t.bandwidth : false;
        if (!low) {
          if (this.#explain && t.type === 'energy_below')
            out.push(
              this.#decided(
                quiet(rule, `energy ${grouped(have.energy)} ≥ level ${grouped(t.energy)}: nothing to do`, { energy: have.energy, level: t.energy }),
              ),
            );
          if (this.#explain && t.type === 'bandwidth_below')
            out.push(
              this.#decided(
                quiet(rule, `bandwidth ${grouped(have.bandwidth)} ≥ level ${grouped(t.bandwidth)}: nothing to do`, {
                  bandwidth: have.bandwidth,
                  level: t.bandwidth,
                }),
              ),
            );
          continue;
        }
        try {
          out.push(this.#decided(await actOn(this.#ctx, rule, levelWindow(rule, this.clock.now()), { energy: have.energy, bandwidth: have.bandwidth })));
        } catch (error) {
          out.push(this.#decided({ rule: rule.id, window: '', outcome: 'error', reason: (error as Error).message }));
        }
      }
    }
    return out;
  }

  /** A sleep that stop() cuts short (a step in flight is never cut). */
  async #nap(ms: number): Promise<void> {
    try {
      await this.clock.sleep(ms, this.#sleep.signal);
    } catch {
      // stopped
    }
  }

  /** Tick until stopped (or `signal` aborts, which stops the same way: after the step in flight). */
  run(options: { signal?: AbortSignal | undefined; maxTicks?: number | undefined } = {}): Promise<void> {
    options.signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.#running ??= (async () => {
      for (let n = 0; !this.#stopping && n < (options.maxTicks ?? Infinity); n++) {
        const started = this.clock.now();
        await this.tick();
        this.#onTick?.(this.stats);
        const left = started + this.tickMs - this.clock.now();
        if (left > 0 && !this.#stopping) await this.#nap(left);
      }
      await this.journal.close();
    })();
    return this.#running;
  }

  /** Stop after the step in flight; resolves when the run loop has ended. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#sleep.abort();
    await this.#running;
  }

  /**
   * What would happen now: a dry run of one tick that reads every watched address once, still
   * within the node budget (so a plan of N addresses takes N / rps seconds). Nothing is spent or
   * journaled. Every rule gets at least one decision: a rule whose trigger did not fire is
   * `nothing`, with what it saw against its level in `reason` (`energy 80,000 ≥ level 65,000:
   * nothing to do`) and in `detail`.
   */
  async plan(): Promise<Decision[]> {
    const dry = new RuleRunner({
      client: this.#ctx.client,
      rules: { version: 1, rules: [...this.rules] },
      journal: new MemoryJournal(await this.journal.entries()),
      clock: this.clock,
      tickMs: Math.max(1000, Math.ceil(this.#addresses.length / this.rps) * 1000),
      nodeRequestsPerSecond: this.rps,
      dryRun: true,
      runnerId: this.#ctx.runner,
    });
    dry.#explain = true;
    return dry.tick();
  }
}

/** The decision of a rule whose trigger did not fire (plans only): why, in words and numbers. */
function quiet(rule: Rule, reason: string, detail: Record<string, unknown>): Decision {
  return { rule: rule.id, window: '', outcome: 'nothing', reason, detail };
}
