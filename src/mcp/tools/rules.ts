/**
 * Standing rules, read-only: check a rules file (validate and explain), plan it (what would
 * happen now, nothing spent or journaled) and read its journal. Starting, stopping or changing a
 * runner stays with a person (`trx-rent rules run`). Files are read only under the server's
 * working directory: a rules file must end in `.json`, `.yaml` or `.yml`, a journal in `.jsonl`; the rules may also
 * be given inline. A journal named but not there is NOT_FOUND (never read as empty), and the
 * credentials of any URL in a journal line are masked.
 */
import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import * as z from 'zod';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { redactDeep } from '../../internal/redact.js';
import { tool } from '../tool.js';

const rulesModule = () => import('../../workflows/rules/index.js');

const RulesSource = z.strictObject({
  file: z.string().min(1).max(4096).optional(),
  rules: z.record(z.string(), z.unknown()).optional(),
});

/** A path under the working directory with the given suffix, or a VALIDATION_ERROR naming `field`. */
/** The names a rules file may have. */
const RULES_FILES = ['.json', '.yaml', '.yml'] as const;

function inside(path: string, suffixes: readonly string[], field: string): string {
  const root = resolve('.');
  const full = resolve(root, path);
  if (!(full === root || full.startsWith(root + sep)) || !suffixes.some((s) => full.endsWith(s))) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: `${field}: must be a ${suffixes.join(', ')} file under the server's working directory`,
      details: { field },
    });
  }
  return full;
}

/** The entries of the journal at `path` (under the working directory); NOT_FOUND when there is none. */
async function journalEntries(path: string) {
  const m = await rulesModule();
  const full = inside(path, ['.jsonl'], 'journal');
  if (!existsSync(full))
    throw new NotFoundError({
      code: 'NOT_FOUND',
      message: `journal: no file at ${path} (leave journal out to count from nothing)`,
      details: { field: 'journal' },
    });
  return m.readJournalFile(full);
}

async function loadSource(args: z.output<typeof RulesSource>) {
  const m = await rulesModule();
  if ((args.file === undefined) === (args.rules === undefined)) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: 'give either file (a .json, .yaml or .yml path) or rules (the document)',
      details: { field: 'file' },
    });
  }
  const file = args.file === undefined ? m.validateRules(args.rules, 'rules') : await m.loadRules(inside(args.file, RULES_FILES, 'file'));
  return { m, file };
}

const Decision = z.looseObject({
  rule: z.string(),
  window: z.string(),
  outcome: z.string(),
  reason: z.string().optional(),
  cost_sun: z.number().optional(),
  summary: z.string().optional(),
});

export const RULES_TOOLS = [
  tool({
    name: 'rules_check',
    title: 'Check a standing-rules file',
    description:
      'Validate a standing-rules file (JSON or YAML, the schema of `trx-rent/rules.schema.json`) and explain each rule in words. Read-only. ' +
      "Give `file` (a .json, .yaml or .yml path under the server's working directory) or `rules` (the document itself). " +
      'An invalid file is a VALIDATION_ERROR whose details.issues name each rule (id) and field.',
    access: 'read',
    input: RulesSource,
    output: z.looseObject({ valid: z.boolean(), rules: z.array(z.looseObject({ id: z.string(), explanation: z.string() })) }),
    fields: { file: 'Path of a .json, .yaml or .yml rules file under the working directory', rules: 'The rules document itself ({ rules: [...] })' },
    async run(args) {
      const { m, file } = await loadSource(args);
      return { valid: true, rules: file.rules.map((r) => ({ id: r.id, explanation: m.explainRule(r) })) };
    },
  }),
  tool({
    name: 'rules_plan',
    title: 'Plan standing rules',
    description:
      'What a standing-rules file would do now: reads the watched addresses on the TRON node and previews prices, with the limits ' +
      'counted from its journal if given (a journal named but missing is NOT_FOUND). Spends nothing and journals nothing (outcome would_act, ' +
      'suppressed with a reason, nothing with why: e.g. "energy 80,000 ≥ level 65,000: nothing to do", error); quiet lists the rules with nothing to do. ' +
      'Costs in SUN (1 TRX = 1,000,000 SUN). Running the rules stays with a person (`trx-rent rules run`).',
    access: 'read',
    input: RulesSource.extend({ journal: z.string().min(1).max(4096).optional() }),
    output: z.looseObject({ decisions: z.array(Decision), quiet: z.array(z.string()) }),
    fields: { journal: 'Path of the .jsonl journal under the working directory (limits are counted from it)' },
    async run(args, { session }) {
      const { m, file } = await loadSource(args);
      const entries = args.journal ? await journalEntries(args.journal) : [];
      const runner = new m.RuleRunner({ client: session.api, rules: file, journal: new m.MemoryJournal(entries), dryRun: true });
      const decisions = await runner.plan();
      return { decisions, quiet: file.rules.filter((r) => decisions.every((d) => d.rule !== r.id || d.outcome === 'nothing')).map((r) => r.id) };
    },
  }),
  tool({
    name: 'rules_log',
    title: 'Read a standing-rules journal',
    description:
      "The last entries of a standing-rules journal (.jsonl under the server's working directory): triggers, intents, done (order ids, cost_sun), " +
      'failed, unknown (counted as spent), suppressed (and why), retired. Read-only; a missing journal is NOT_FOUND; credentials in URLs are masked.',
    access: 'read',
    input: z.strictObject({
      journal: z.string().min(1).max(4096),
      rule: z.string().min(1).max(48).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    output: z.looseObject({ entries: z.array(z.looseObject({ ts: z.number(), kind: z.string(), rule: z.string() })) }),
    fields: { journal: 'Path of the .jsonl journal', rule: 'One rule id only', limit: 'Last N entries (default 50)' },
    async run(args) {
      const all = await journalEntries(args.journal);
      return {
        entries: all
          .filter((e) => !args.rule || e.rule === args.rule)
          .slice(-(args.limit ?? 50))
          .map((e) => redactDeep({ ...e })),
      };
    },
  }),
];
