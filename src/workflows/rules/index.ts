/**
 * Standing rules (`trx-rent/rules`): keep addresses topped up and buy when cheap, from a rules
 * file, with limits counted from a journal and Idempotency-Keys derived from each rule's trigger
 * window, so a restart or a second runner never buys twice. See the README's "Standing rules".
 *
 * ```ts
 * import { TrxRent } from 'trx-rent';
 * import { RuleRunner, FileJournal, loadRules } from 'trx-rent/rules';
 *
 * // dryRun is required: false spends (orders and journals), true decides and reports only.
 * const runner = new RuleRunner({ client: new TrxRent(), rules: await loadRules('rules.yaml'), journal: new FileJournal('rules.journal'), dryRun: false });
 * process.on('SIGTERM', () => void runner.stop());
 * await runner.run();
 * ```
 * @module
 */
export { RuleRunner, type RuleRunnerOptions, type RunnerStats } from './runner.js';
export type { Decision } from './act.js';
export {
  type Journal,
  type JournalEntry,
  type JournalKind,
  type RulesJournal,
  type RulesJournalEntry,
  type OrderRequest,
  RulesIndex,
  RulesLedger,
  MemoryJournal,
  FileJournal,
  readJournalFile,
  storeRulesJournal,
  parseJournal,
} from './journal.js';
export { actionsOf, limitState, blockedBy, type ActionRecord, type LimitState } from './limits.js';
export { isYamlPath, loadRules, parseRules, parseRulesYaml, validateRules, RulesFileError, type RuleIssue } from './load.js';
export {
  RulesFile,
  Rule,
  Trigger,
  Action,
  Limits,
  Notify,
  rulesJsonSchema,
  durationSeconds,
  type NotifySettings,
  type RulesFileInput,
} from './schema.js';
export { parseCron, isValidCron, cronMatches, nextFireTime, lastFireTime, wallTime, type CronSpec } from './cron.js';
export { explainRule, idempotencyKey, levelWindow, DEFAULT_WINDOW_SEC } from './triggers.js';
export { Notifier, notifyWarnings, probeWebhooks, type NotifyOptions, type RuleEvent, type RuleEventName } from './notify.js';
export { backtest, type BacktestOptions, type BacktestResult, type PricePoint } from './backtest.js';
export type { RulesClient } from './types.js';
