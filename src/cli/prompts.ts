/**
 * The questions the CLI asks, as plain configurations for the @inquirer prompt packages (which is imported
 * lazily, through `ctx.ask.prompts()`, only when a person is at a terminal). Kept apart so tests can
 * drive them with @inquirer/testing.
 */
import { LIMITS } from './facts.js';
import { formatDuration } from './format.js';
import { type Resource, validate } from './parse.js';

export const DURATION_PRESETS = [1_800, 3_600, 10_800, 21_600, 86_400, 259_200, 604_800, 2_592_000] as const;

/** Choices for the duration select: the providers' tiers when known, else common presets. */
export function durationChoices(tiers: number[] = []): Array<{ name: string; value: number }> {
  const values = [...new Set(tiers.length ? tiers : DURATION_PRESETS)].filter((v) => v > 0).sort((a, b) => a - b);
  return values.map((value) => ({ name: `${formatDuration(value)}${value === 3600 ? ' (most common)' : ''}`, value }));
}

export function resourceQuestion() {
  return {
    message: 'Which resource?',
    choices: [
      { name: 'Energy (smart-contract calls, e.g. USDT transfers)', value: 'ENERGY' as Resource },
      { name: 'Bandwidth (plain transfers)', value: 'BANDWIDTH' as Resource },
    ],
    default: 'ENERGY' as Resource,
  };
}

export function durationQuestion(tiers?: number[]) {
  const choices = durationChoices(tiers);
  return {
    message: 'For how long?',
    choices,
    default: choices.find((c) => c.value === 3600)?.value ?? choices[0]?.value,
  };
}

export function amountQuestion(resource: Resource = 'ENERGY') {
  return {
    message:
      resource === 'ENERGY'
        ? `How much energy (units, at least ${LIMITS.MIN_ENERGY_AMOUNT})?`
        : `How much bandwidth (units, at least ${LIMITS.MIN_BANDWIDTH_AMOUNT})?`,
    default: resource === 'ENERGY' ? String(LIMITS.MIN_ENERGY_AMOUNT) : String(LIMITS.MIN_BANDWIDTH_AMOUNT),
    validate: resource === 'ENERGY' ? validate.energyUnits : validate.bandwidthUnits,
  };
}

export function addressQuestion(message = 'Deliver to which TRON address?') {
  return { message, validate: validate.address };
}

/** A decimal amount; with `minSun`, one below it is refused and asked again. */
export function trxAmountQuestion(message: string, minSun?: number) {
  return { message, validate: minSun === undefined ? validate.trx : validate.trxAtLeast(minSun) };
}

export function durationInputQuestion() {
  return { message: 'Duration (30m, 1h, 3d or seconds)?', default: '1h', validate: validate.duration };
}
