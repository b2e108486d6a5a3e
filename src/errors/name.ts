/**
 * Error classes keep their names in any bundle. A minifier renames classes (`InvalidAddressError`
 * becomes `$r`), and a bundler renames a class that refers to itself (`_TrxRentError`); `err.name`
 * and the stack's first line come from the class's `name`, so each error class writes its name
 * out once, in a `static {}` block: `static { nameClass(this, 'InvalidAddressError'); }`.
 * `test/errors/error-names.test.ts` checks every public error class in a minified bundle of dist.
 *
 * @module
 */

/**
 * Give an error class its real name, whatever a bundler or minifier calls it: `Class.name`, and
 * so `err.name` (TrxRentError's constructor reads `new.target.name`) and the stack's first line.
 * @internal
 */
export function nameClass(Class: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(Class, 'name', { value: name, configurable: true });
}
