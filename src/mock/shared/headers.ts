/**
 * The one header interface the mock's stages read; it imports nothing, so state and pipeline
 * modules can both use it.
 *
 * @module
 */

/** Read-only request headers; `Headers` satisfies it, and so does the node:http adapter's view. */
export interface HeaderReader {
  /** The header's value (repeated headers joined with `, `), or null. Names are case-insensitive. */
  get(name: string): string | null;
  /** Whether the header was sent at all. */
  has(name: string): boolean;
}
