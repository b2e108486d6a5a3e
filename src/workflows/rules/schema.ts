/**
 * The rules file, as zod schemas: one source for validation (`loadRules`), the JSON Schema
 * shipped for editor completion (`trx-rent/rules.schema.json`, from {@link rulesJsonSchema}) and
 * the TypeScript types. Wire names are snake_case like the API's. Money is TRX as a decimal
 * string or number, converted exactly to SUN (never floating point); prices per unit are SUN,
 * as the API quotes them; durations are `30m`, `1h`, `1d` or seconds.
 * @module
 */
import * as z from 'zod';
import { isTronAddress } from '../../utils/address.js';
import { trxToSun } from '../../utils/units.js';
import { isValidCron } from './cron.js';

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Seconds in a duration (`90s`, `30m`, `1h30m`, `1d`, or a whole number of seconds); undefined when malformed. */
export function durationSeconds(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input > 0 ? input : undefined;
  const text = input.trim().toLowerCase();
  if (/^\d+$/.test(text)) return durationSeconds(Number(text));
  if (!/^(\d+[smhdw])+$/.test(text)) return undefined;
  let total = 0;
  for (const [, value, unit] of text.matchAll(/(\d+)([smhdw])/g)) total += Number(value) * DURATION_UNITS[unit as string]!;
  return total > 0 && Number.isSafeInteger(total) ? total : undefined;
}

const address = z.string().refine(isTronAddress, 'must be a base58check TRON address (T…, 34 characters)').describe('A TRON address (base58, T…).');
const duration = z
  .union([z.string(), z.number()])
  .refine((v) => durationSeconds(v) !== undefined, 'must be a duration like 30m, 1h, 1d or a whole number of seconds')
  .transform((v) => durationSeconds(v)!)
  .describe('A duration: 30m, 1h, 1d, 1h30m, or seconds.');
const trx = z
  .union([z.string().regex(/^\d+(\.\d{1,6})?$/, 'must be TRX as a decimal string like "25" or "2.5" (at most 6 decimals)'), z.number().nonnegative()])
  .transform((v, ctx) => {
    try {
      return trxToSun(v);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .describe('TRX, as a decimal string ("25", "2.5") or number; kept as exact SUN.');
const units = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const priceSun = z.number().positive().max(1_000_000).describe('SUN per unit of resource, as the API quotes prices.');
const resource = z.enum(['ENERGY', 'BANDWIDTH']);

/** `price_below`: the best price for `resource` rented for `duration` is under `price_sun`. */
export const PriceBelow = z.strictObject({
  type: z.literal('price_below'),
  resource: resource.default('ENERGY'),
  duration: duration.default(3600),
  price_sun: priceSun.describe('Fires while the best price per unit is below this, in SUN.'),
});
/** `schedule`: a 5-field cron expression in a time zone. */
export const Schedule = z.strictObject({
  type: z.literal('schedule'),
  cron: z
    .string()
    .refine(isValidCron, 'must be a 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5"')
    .describe('minute hour day-of-month month day-of-week'),
  timezone: z
    .string()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as UTC or Europe/Berlin')
    .default('UTC'),
});
/** `energy_below`: what `address` can spend is under `energy`. */
export const EnergyBelow = z.strictObject({
  type: z.literal('energy_below'),
  address,
  energy: units.describe('Fires while the address can spend less energy than this.'),
});
/** `bandwidth_below`: what `address` can spend is under `bandwidth`. */
export const BandwidthBelow = z.strictObject({
  type: z.literal('bandwidth_below'),
  address,
  bandwidth: units.describe('Fires while the address can spend less bandwidth than this.'),
});
/** `delegation_expiring`: a rental to `address` ends within `minutes_before`; renew it (only below `below_price_sun`, if given). */
export const DelegationExpiring = z.strictObject({
  type: z.literal('delegation_expiring'),
  address,
  minutes_before: z.number().int().positive().max(10_080).default(10),
  resource: resource.default('ENERGY'),
  below_price_sun: priceSun.optional().describe('Renew only while the best price per unit is below this.'),
});
/** What makes a rule act. */
export const Trigger = z.discriminatedUnion('type', [PriceBelow, Schedule, EnergyBelow, BandwidthBelow, DelegationExpiring]);

/** `ensure`: buy only the deficit, so `address` can spend `energy` (and `bandwidth`). */
export const EnsureAction = z.strictObject({
  type: z.literal('ensure'),
  address: address.optional().describe("Default: the trigger's address."),
  energy: units.optional(),
  bandwidth: units.optional(),
  duration: duration.default(3600),
});
/** `buy`: a fixed order. */
export const BuyAction = z.strictObject({
  type: z.literal('buy'),
  address: address.optional().describe("Default: the trigger's address."),
  resource: resource.default('ENERGY'),
  amount: units,
  duration: duration.default(3600),
});
/** `notify`: send a notification only. */
export const NotifyAction = z.strictObject({ type: z.literal('notify'), message: z.string().max(500).optional() });
/** What a rule does when triggered. */
export const Action = z.discriminatedUnion('type', [EnsureAction, BuyAction, NotifyAction]);

/** Limits, all counted from the journal. */
export const Limits = z.strictObject({
  max_spend_per_day: trx.optional().describe('Most TRX spent in any rolling 24 hours.'),
  max_total_spend: trx.optional().describe('The rule retires when this much TRX has been spent.'),
  max_runs_per_day: z.number().int().positive().max(100_000).optional().describe('Most actions in any rolling 24 hours.'),
  min_interval: duration.optional().describe('Least time between two actions; also the trigger window of level triggers (default 10m).'),
  max_price: priceSun.optional().describe('Never pay more per unit, in SUN.'),
  expires_at: z.iso.datetime({ offset: true }).optional().describe('The rule stops acting at this time (ISO 8601).'),
  paused: z.boolean().optional(),
});

/** Where notifications go. The webhook is signed like the service's (X-Service-Signature: sha256=HMAC). */
export const Notify = z.strictObject({
  webhook: z
    .strictObject({
      url: z.url({ protocol: /^https?$/ }),
      secret_env: z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name')
        .describe('Environment variable holding the signing secret (never in the file).'),
    })
    .optional(),
  stdout: z.boolean().default(true).describe('NDJSON events on stdout.'),
  on: z.array(z.enum(['action', 'suppressed', 'error', 'retired'])).default(['action', 'error', 'retired']),
});

/** One standing rule. */
export const Rule = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be 1-48 characters: a-z, 0-9, _ and -, starting with a letter or digit'),
  description: z.string().max(500).optional(),
  trigger: Trigger,
  action: Action,
  limits: Limits.default({}),
  notify: Notify.optional().describe("Overrides the file's notify for this rule."),
});

/** The rules file. */
export const RulesFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).default(1),
    notify: Notify.optional(),
    rules: z.array(Rule).min(1).max(100_000),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `duplicate rule id ${rule.id}` });
      seen.add(rule.id);
      const a = rule.action;
      const hasAddress = 'address' in rule.trigger;
      if ((a.type === 'ensure' || a.type === 'buy') && !a.address && !hasAddress) {
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'action', 'address'],
          message: `a ${rule.trigger.type} trigger has no address: give the action one`,
        });
      }
      if (a.type === 'ensure' && a.energy === undefined && a.bandwidth === undefined) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'action', 'energy'], message: 'ensure needs energy or bandwidth' });
      }
      if (a.type === 'ensure' && a.energy !== undefined && a.energy < 32_000) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'action', 'energy'], message: 'must be at least the 32000 energy a provider rents' });
      }
    });
  });

/** A parsed rules file (durations in seconds, money in SUN). */
export type RulesFile = z.output<typeof RulesFile>;
/** A parsed rule. */
export type Rule = z.output<typeof Rule>;
/** A parsed trigger. */
export type Trigger = z.output<typeof Trigger>;
/** A parsed action. */
export type Action = z.output<typeof Action>;
/** A rule's parsed limits (SUN, seconds). */
export type Limits = z.output<typeof Limits>;
/** Parsed notification settings. */
export type NotifySettings = z.output<typeof Notify>;
/** A rules file as written (before defaults and conversions). */
export type RulesFileInput = z.input<typeof RulesFile>;

/** The JSON Schema of the rules file as written (draft 2020-12), for editors: `trx-rent/rules.schema.json`. */
export function rulesJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(RulesFile, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $id: 'https://trx-rent.dev/rules.schema.json', title: 'trx-rent standing rules', ...schema };
}
