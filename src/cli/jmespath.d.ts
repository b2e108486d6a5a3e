// jmespath 0.16.0 (the reference JavaScript implementation) ships no types: the part the CLI uses.
declare module 'jmespath' {
  /** What `expression` selects from `data`; throws on a malformed expression. */
  export function search(data: unknown, expression: string): unknown;
  /** Parses `expression` (throws on a malformed one). */
  export function compile(expression: string): unknown;
}
