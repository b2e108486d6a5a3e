/**
 * The one place that reads the environment. Runtimes without `process` (browsers, edge
 * workers) or that deny access to it (Deno without `--allow-env`) simply see no variables.
 * @module
 */

/** The value of an environment variable, or undefined (unset, empty, or no environment). */
export function env(name: string): string | undefined {
  try {
    return (typeof process !== 'undefined' && process.env?.[name]) || undefined;
  } catch {
    return undefined;
  }
}
