/**
 * Reading a rules file: JSON, or YAML (`.yaml`/`.yml`) through the optional peer `yaml` (the
 * YAML 1.2 parser, loaded only for such a file; a hand-rolled subset would read some files wrong).
 * Both end in the same zod schemas, and every error names the rule (its `id`, or its position
 * when it has none) and the field. A key written twice in one object is refused in both (JSON
 * would keep the last silently): the error names the key and its line.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type * as z from 'zod';
import { ValidationError } from '../../errors/index.js';
import { nameClass } from '../../errors/name.js';
import { loadYaml } from '../../peers/index.js';
import { RulesFile } from './schema.js';

/** One problem in a rules file. */
export interface RuleIssue {
  /** The rule's id, `#3` (position, 1-based) when it has none, or undefined for the file itself. */
  rule: string | undefined;
  /** Dotted path inside the rule (or the file), e.g. `trigger.energy`. */
  field: string;
  message: string;
  /** The line in the file (1-based), when the problem is one of the text (a duplicate key). */
  line?: number | undefined;
}

/** A rules file that does not validate: `details.issues` lists every problem. */
export class RulesFileError extends ValidationError {
  static {
    nameClass(this, 'RulesFileError');
  }
  readonly issues: RuleIssue[];
  constructor(source: string, issues: RuleIssue[]) {
    const lines = issues.map((i) => `${i.rule === undefined ? 'file' : `rule ${i.rule}`}: ${i.field}: ${i.message}`);
    super({
      code: 'VALIDATION_ERROR',
      message: `${source}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n  ${lines.join('\n  ')}`,
      details: { field: issues[0]?.field, rule: issues[0]?.rule, issues },
    });
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
      const message =
        issue.code === 'invalid_union' && path.length === 3 ? `${issue.message}: type must be one of the documented ${path[2]} types` : issue.message;
      return { rule: typeof id === 'string' && id ? id : `#${index + 1}`, field, message };
    }
    return { rule: undefined, field: path.join('.') || '(file)', message: issue.message };
  });
}

/** A key repeated inside one object of a JSON text: its path (object keys and array indexes) and line. */
interface DuplicateKey {
  path: Array<string | number>;
  line: number;
}

/**
 * Every key written twice in one object of `text`, which JSON.parse has accepted (so strings are
 * whole and hold no raw line break). Keys compare as JSON.parse reads them (`"a"` and `"\u0061"`
 * are the same key).
 */
function duplicateKeys(text: string): DuplicateKey[] {
  // One frame per open object (its keys so far, the key being read) or array (the index being read).
  const stack: Array<{ keys: Set<string>; key: string } | { keys: undefined; index: number }> = [];
  const found: DuplicateKey[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '{') stack.push({ keys: new Set(), key: '' });
    else if (c === '[') stack.push({ keys: undefined, index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top && top.keys === undefined) top.index++;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      let next = end + 1;
      while (next < text.length && ' \t\r\n'.includes(text[next]!)) next++;
      if (top?.keys && text[next] === ':') {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) found.push({ path: [...stack.slice(0, -1).map((f) => (f.keys ? f.key : f.index)), key], line });
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    }
  }
  return found;
}

function duplicateIssues(duplicates: DuplicateKey[], raw: unknown): RuleIssue[] {
  const rules = (raw as { rules?: unknown })?.rules;
  return duplicates.map(({ path, line }) => {
    const key = String(path.at(-1));
    const message = `duplicate key "${key}" on line ${line}: JSON keeps only the last value, so the file is refused; write the key once`;
    if (path[0] === 'rules' && typeof path[1] === 'number' && path.length > 2) {
      const id = Array.isArray(rules) ? (rules[path[1]] as { id?: unknown } | undefined)?.id : undefined;
      return { rule: typeof id === 'string' && id ? id : `#${path[1] + 1}`, field: path.slice(2).join('.'), message, line };
    }
    return { rule: undefined, field: path.join('.'), message, line };
  });
}

/** Validate a rules document already parsed (from JSON, YAML or code). Throws {@link RulesFileError}. */
export function validateRules(raw: unknown, source = 'rules'): RulesFile {
  const parsed = RulesFile.safeParse(raw);
  if (!parsed.success) throw new RulesFileError(source, issuesOf(parsed.error, raw));
  return parsed.data;
}

/** Parse and validate a JSON rules file's text; a key written twice in one object is refused. Throws {@link RulesFileError}. */
export function parseRules(text: string, source = 'rules'): RulesFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const yamlish = /^\s*[A-Za-z_$][\w$]*\s*:/m.test(text) && !text.trim().startsWith('{');
    throw new RulesFileError(source, [
      {
        rule: undefined,
        field: '(file)',
        message: yamlish ? 'this looks like YAML: name the file .yaml (or .yml) to read it as YAML' : `not JSON: ${(error as Error).message}`,
      },
    ]);
  }
  const duplicates = duplicateKeys(text);
  if (duplicates.length) throw new RulesFileError(source, duplicateIssues(duplicates, raw));
  return validateRules(raw, source);
}

/**
 * Parse and validate a YAML rules file's text (YAML 1.2, the core schema; duplicate keys are an
 * error). Needs the optional peer `yaml` (`npm install yaml`): without it a
 * MissingPeerDependencyError names the install command. Throws {@link RulesFileError}.
 */
export async function parseRulesYaml(text: string, source = 'rules'): Promise<RulesFile> {
  const { parseAllDocuments } = await loadYaml();
  const documents = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true, merge: false });
  const list = Array.isArray(documents) ? documents : [];
  if (list.length !== 1)
    throw new RulesFileError(source, [{ rule: undefined, field: '(file)', message: `a rules file is one YAML document, found ${list.length}` }]);
  const document = list[0]!;
  const problems = [...document.errors, ...document.warnings];
  if (problems.length) {
    throw new RulesFileError(
      source,
      problems.map((p) => ({
        rule: undefined,
        field: '(file)',
        message: `YAML ${p.linePos ? `line ${p.linePos[0].line}, column ${p.linePos[0].col}` : ''}: ${p.message.split('\n')[0]}`,
      })),
    );
  }
  let raw: unknown;
  try {
    raw = document.toJS({ maxAliasCount: 100 }); // an alias bomb stops here, unexpanded
  } catch (error) {
    throw new RulesFileError(source, [{ rule: undefined, field: '(file)', message: `YAML: ${(error as Error).message}` }]);
  }
  return validateRules(raw, source);
}

/** Whether a path names a YAML rules file (`.yaml` or `.yml`). */
export const isYamlPath = (path: string): boolean => /\.ya?ml$/i.test(path);

/**
 * Read and validate a rules file from disk: YAML when it is named `.yaml`/`.yml` (see
 * {@link parseRulesYaml}), JSON otherwise. Throws {@link RulesFileError}.
 */
export async function loadRules(path: string): Promise<RulesFile> {
  const text = await readFile(path, 'utf8');
  return isYamlPath(path) ? parseRulesYaml(text, path) : parseRules(text, path);
}
