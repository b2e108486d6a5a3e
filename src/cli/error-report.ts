/**
 * The one-line, actionable error report of any error: its code, message (redacted), exit code
 * and hint (`reportFor`), and its text for people (`formatReport`).
 */
import { TrxRentError } from '../errors/index.js';
import { redactText } from '../internal/redact.js';
import { CliError, InterruptedError, exitCodeFor, isPromptExit } from './errors.js';
import { type HintContext, hintFor } from './error-hints.js';

/** An error as reported: on stderr in one line for people, or as the `{ error }` JSON line. */
export interface ErrorReport {
  code: string;
  message: string;
  hint?: string;
  exit_code: number;
  status?: number;
  details?: Record<string, unknown>;
}

/** The structured report of any error: code, message and, where we can, what to do about it. */
export async function reportFor(error: unknown, hc: HintContext = {}): Promise<ErrorReport> {
  const exit_code = exitCodeFor(error);
  if (error instanceof CliError) {
    return {
      code: error.code,
      message: redactText(error.message),
      exit_code,
      ...(error.hint ? { hint: error.hint } : {}),
      ...(error instanceof InterruptedError || error.details ? { details: (error as { details?: Record<string, unknown> }).details } : {}),
    };
  }
  if (error instanceof TrxRentError) {
    // The SDK's wording names SDK options; a CLI user gets the CLI's way out in the hint instead.
    const message =
      error.code === 'INSECURE_TRANSPORT' ? error.message.replace(/ Use https:\/\/, or pass \{ allowInsecureHttp: true \}[^.]*\./, '') : error.message;
    const report: ErrorReport = { code: error.code, message: redactText(message), exit_code };
    if (error.status !== undefined) report.status = error.status;
    const hint = await hintFor(error, hc);
    if (hint) report.hint = hint;
    return report;
  }
  if (isPromptExit(error)) return { code: 'CANCELLED', message: 'Cancelled.', exit_code };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'UNEXPECTED', message: redactText(message), exit_code, hint: 'Run again with --verbose for details.' };
}

/** A message longer than this is not one line: the hint comes first and the message is wrapped. */
const ONE_LINE = 200;

/**
 * An error report for people: one line (`error CODE: message (hint: …)`) when it is short; a long
 * one (a payment refusal listing every offer) puts the hint, what to do, on the first line and
 * wraps the message below it at `width` columns.
 */
export function formatReport(report: ErrorReport, style: { red(s: string): string; dim(s: string): string }, width = 80): string {
  if ([...report.message].length <= ONE_LINE && !report.message.includes('\n')) {
    return `${style.red(`error ${report.code}`)}: ${report.message}${report.hint ? style.dim(` (hint: ${report.hint})`) : ''}`;
  }
  const head = `${style.red(`error ${report.code}`)}${report.hint ? `: ${report.hint}` : ''}`;
  return `${head}\n${wrap(report.message, Math.max(40, width) - 2)
    .map((l) => `  ${style.dim(l)}`)
    .join('\n')}`;
}

/** `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let current = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (current && [...current].length + 1 + [...word].length > width) {
        lines.push(current);
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    lines.push(current);
  }
  return lines;
}
