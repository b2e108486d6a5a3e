/**
 * The one place that reads the environment. Runtimes without `process` (browsers, edge
 * workers) or that deny access to it (Deno without `--allow-env`) simply see no variables.
 * @module
 */

interface DenoPermissions {
  querySync?(descriptor: { name: 'env'; variable: string }): { state: string };
}

/**
 * Deno asks the person at the terminal before a program reads a variable it was not allowed
 * (`--allow-env`), once per variable; a library must not trigger that. Its permission API says,
 * without asking, whether the read is already allowed.
 */
function denoDenies(name: string): boolean {
  const permissions = (globalThis as { Deno?: { permissions?: DenoPermissions } }).Deno?.permissions;
  if (typeof permissions?.querySync !== 'function') return false;
  return permissions.querySync({ name: 'env', variable: name }).state !== 'granted';
}

/** The value of an environment variable, or undefined (unset, empty, not allowed, or no environment). */
export function env(name: string): string | undefined {
  try {
    if (denoDenies(name)) return undefined;
    return (typeof process !== 'undefined' && process.env?.[name]) || undefined;
  } catch {
    return undefined;
  }
}
