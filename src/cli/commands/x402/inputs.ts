/**
 * The inputs several `trx-rent x402 …` commands parse alike: a positive decimal amount, a JSON
 * object argument, and a file (or stdin) of signed transactions.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/** A positive decimal amount as the API takes it (a string, `1.5`); a usage error naming `name` otherwise. */
export function decimal(input: string, name: string): string {
  const text = String(input).trim();
  if (!/^\d+(\.\d+)?$/.test(text) || !/[1-9]/.test(text)) throw new UsageError(`${name} must be a positive decimal like 1.5, got ${JSON.stringify(input)}`);
  return text;
}

/** A JSON object argument (`{}` when absent); a usage error naming `name` for anything else. */
export function jsonArg(input: string | undefined, name: string): Record<string, unknown> {
  if (input === undefined) return {};
  try {
    const value = JSON.parse(input) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new UsageError(`${name} must be a JSON object, got ${JSON.stringify(input)}`);
}

/** The text of `path`, or of stdin when it is `-` or absent (a usage error at a terminal). */
export async function readFileOrStdin(ctx: Context, path: string | undefined, what: string): Promise<string> {
  if (path && path !== '-') {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  if (ctx.stdin.isTTY) throw new UsageError(`no ${what}`, `pass --file FILE or pipe it on stdin`, 'MISSING_ARGUMENT');
  return ctx.readStdin();
}
