/**
 * A compile-time check, no runtime code: every x402 entry of the endpoint table names, as its
 * `sdk` binding, a method of {@link X402Client} (a missing one is a type error naming the entry).
 * @module
 */
import type { X402_ENDPOINTS as X } from '../api/x402.js';
import type { X402Client } from './client.js';

type X402Bindings = { [Id in keyof typeof X]: (typeof X)[Id]['sdk'] };
/** The ids of x402 entries whose `sdk` names no method of X402Client (never, or this file does not compile). */
type X402EntriesWithoutMethod = {
  [Id in keyof X402Bindings]: X402Bindings[Id] extends keyof X402Client
    ? X402Client[X402Bindings[Id]] extends (...args: never[]) => unknown
      ? never
      : Id
    : Id;
}[keyof X402Bindings];
/** A table entry (src/api/x402.ts) whose `sdk` names no method of X402Client is a type error here, naming the entry. */
export type CheckX402SdkBindings = [X402EntriesWithoutMethod] extends [never] ? true : { missingSdkMethodFor: X402EntriesWithoutMethod };
const everyX402EntryHasItsMethod: CheckX402SdkBindings = true;
void everyX402EntryHasItsMethod;
