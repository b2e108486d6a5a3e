/**
 * The global options every command sees (`--json`, `--profile`, `--mock`, …), as commander
 * gives them to an action: the context and its services read them from here.
 * @module
 */

/** The global options, resolved by commander for one run (before or after the command). */
export interface GlobalOptions {
  baseUrl?: string;
  profile?: string;
  apiKeyFile?: string;
  json?: boolean;
  yes?: boolean;
  mock?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** `--json id,status` (the word after --json; see expandJsonFields in index.ts). */
  jsonFields?: string;
  /** `--query EXPR`: JMESPath over the JSON result. */
  query?: string;
  /** `--wide`: tables at full width. */
  wide?: boolean;
}
