/**
 * Reading a rules file: JSON only (no YAML parser is a dependency of this package, and a YAML
 * subset that is not YAML would mislead; convert with any YAML tool: `yq -o json`). Every error
 * names the rule (its `id`, or its position when it has none) and the field.
 * @module
 */
import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { ValidationError } from '../../errors/index.js';
import { RulesFile } from './schema.js';

/** One problem in a rules file. */
export interface RuleIssue {
  /** The rule's id, `#3` (position, 1-based) when it has none, or undefined for the file itself. */
  rule: string | undefined;
  /** Dotted path inside the rule (or the file), e.g. `trigger.energy`. */
  field: string;
  message: string;
}

/** A rules file that does not validate: `details.issues` lists every problem. */
export class RulesFileError extends ValidationError {
  readonly issues: RuleIssue[];
  constructor(source: string, issues: RuleIssue[]) {
    const lines = issues.map((i) => `${i.rule === undefined ? 'file' : `rule ${i.rule}`}: ${i.field}: ${i.message}`);
    super({ code: 'VALIDATION_ERROR', message: `${source}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n  ${lines.join('\n  ')}`, details: { field: issues[0]?.field, rule: issues[0]?.rule, issues } });
    this.issues = issues;
  }
}

function issuesOf(error: z.ZodError, raw: unknown): RuleIssue[] {
  const rules = (raw as { rules?: unknown })?.rules;
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (path[0] === 'rules' && path.length >= 2 && Array.isArray(rules)) {
      const index = Number(path[1]);
      const id = (rules[index] as { id?: unknown } | undefined)?.id;
      const field = path.slice(2).join('.') || '(rule)';
      const message = issue.code === 'invalid_union' && path.length === 3 ? `${issue.message}: type must be one of the documented ${path[2]} types` : issue.message;
      return { rule: typeof id === 'string' && id ? id : `#${index + 1}`, field, message };
    }
    return { rule: undefined, field: path.join('.') || '(file)', message: issue.message };
  });
}

/** Parse and validate a rules file's text. Throws {@link RulesFileError}. */
export function parseRules(text: string, source = 'rules'): RulesFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const yamlish = /^\s*[A-Za-z_$][\w$]*\s*:/m.test(text) && !text.trim().startsWith('{');
    throw new RulesFileError(source, [
      { rule: undefined, field: '(file)', message: yamlish ? 'this looks like YAML: rules files are JSON (convert with `yq -o json FILE`)' : `not JSON: ${(error as Error).message}` },
    ]);
  }
  const parsed = RulesFile.safeParse(raw);
  if (!parsed.success) throw new RulesFileError(source, issuesOf(parsed.error, raw));
  return parsed.data;
}

/** Read and validate a rules file from disk. Throws {@link RulesFileError}. */
export function loadRules(path: string): RulesFile {
  return parseRules(readFileSync(path, 'utf8'), path);
}
