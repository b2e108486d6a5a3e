/**
 * What one `trx-rent mcp` process owns, shared by every MCP session it serves (the stdio
 * connection, or every streamable-HTTP session): the account-API client, the x402 client
 * (created on the first paid call: one payment cap and one budget for the whole process), and
 * the spend guard (one cap per currency, counted across sessions). A new session never brings a
 * fresh budget. Credentials come from the options (the CLI's profile or environment), never
 * from tool arguments.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileTransferStore, storeTransfers } from '../tron/transfer-store.js';
import type { Store } from '../store/types.js';
import { TrxRent } from '../client.js';
import { TrxRentError } from '../errors/index.js';
import { X402Client } from '../x402/client.js';
import { attoToUsd, usdToAtto } from '../x402/offers.js';
import type { PaymentQuote } from '../x402/types.js';
import { evmPayer, tronPayer, type Payer } from '../x402/payers.js';
import type { Logger } from '../http/log.js';
import { resolveLimits, type SpendLimits } from './limits.js';
import { Effects, recordingFetch } from './effects.js';
import { chainJob, keyedReplay } from './lookups.js';
import type { OpenSpend } from './spend-journal.js';
import { oneLine } from './text.js';
import { SpendGuard, SpendRefusedError, type Confirmer } from './spend.js';

export interface McpServerOptions {
  /** Service origin (the account API's and the x402 API's). */
  baseUrl: string;
  /** Account-API key (`sk_live_…`); without one only public tools work. */
  apiKey?: string | undefined;
  /** x402 wallet: hex private keys. Without one the x402 tools answer NO_WALLET. */
  wallet?: { tron?: string | undefined; evm?: string | undefined } | undefined;
  /**
   * The BIP-39 words of the HD wallet whose deposit addresses `sweep_plan` and `sweep` collect
   * from (m/44'/195'/account'/0/index). Never shown to a client; without it those tools answer NO_WALLET.
   */
  sweepMnemonic?: string | undefined;
  /** TRON full node for `ensure_resources`, `send_token` and x402 `exact` payments (the mock serves one). Default: TronGrid. */
  tronFullNode?: string | undefined;
  /** TronGrid's API key for that node (TRON-PRO-API-KEY), sent to the node only. */
  tronNodeApiKey?: string | undefined;
  /**
   * How long one `send_token`, or one row of `send_batch`, may take in all (estimate, rental,
   * broadcast, receipt), ms; past it the tool reports what it knows (an unknown outcome once the
   * transfer was broadcast; a batch row stays pending in its journal).
   * @default 120000 for `send_token` (`transfers.send`'s), 300000 for a `send_batch` row (`sendMany`'s `rowTimeoutMs`)
   */
  sendTimeoutMs?: number | undefined;
  /** GasFree relayer for x402 `exact_gasfree` payments (the mock serves one). Default: BankofAI's. */
  gasfreeRelayer?: string | undefined;
  /** Tools that write or spend run only when this is true. @default false */
  allowSpend?: boolean | undefined;
  /**
   * Let a spend go ahead when the client cannot ask the user (no elicitation support). Without
   * it such a spend is refused with CONFIRMATION_REQUIRED; `allowSpend` alone is not enough.
   * @default false
   */
  spendWithoutConfirmation?: boolean | undefined;
  /** Caps on orders, withdrawals and x402 payments (see `SpendLimits` for the defaults). */
  limits?: SpendLimits | undefined;
  /** Where spend lines go (never stdout: it carries the protocol over stdio). @default stderr */
  log?: ((line: string) => void) | undefined;
  /** HTTP for every request. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Reported to clients as the server version. */
  version?: string | undefined;
  /** User-Agent of the SDK's requests. */
  userAgent?: string | undefined;
  /**
   * Where the server keeps its journals (payout batches, signed transfers), a private folder
   * (made 0700; a symlink or another user's folder is refused). The CLI's is `mcp/` under its
   * config directory. @default `~/.trx-rent/mcp`
   */
  stateDir?: string | undefined;
  /**
   * A store several servers share (`postgres://…`, or an open {@link Store}): the spend journal
   * (`mcp.spends`: the session cap counts what every server on it spent, across restarts) and
   * send_token's signed transfers (`mcp.transfers`) live there instead of `stateDir`. Payout
   * batches and sweeps keep their journals in `stateDir`. @default none
   */
  store?: string | Store | undefined;
}

/** The tool call in progress: x402's payment hook asks the user through it, and notes the payment's journal key in it. */
interface CallScope {
  tool: string;
  ask: Confirmer;
  payments?: string[] | undefined;
}

const currentCall = new AsyncLocalStorage<CallScope>();

/** Run `fn` as the tool call `scope` (payment confirmations reach that call's client). */
export function inCall<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return currentCall.run(scope, fn);
}

/** The state one server process shares between its MCP sessions (see the module comment). */
export class Session {
  readonly options: McpServerOptions;
  readonly api: TrxRent;
  readonly guard: SpendGuard;
  #x402: X402Client | undefined;
  readonly #debug: Logger;
  /** The shared store, opened on first use (closed with the session when opened here from a URL). */
  readonly #store: Store | undefined;
  #started = false;

  constructor(options: McpServerOptions) {
    this.options = options;
    const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    this.#store = options.store === undefined ? undefined : lazyStore(options.store);
    // A keyed POST is replayed with its key (its retry too); a chain spend looked up from its effects.
    const restore = (open: OpenSpend) =>
      open.request
        ? keyedReplay(this.api, { ...open, request: open.request })
        : chainJob(
            this.api,
            Effects.restore(open.effects ?? { slots: [] }),
            () => Promise.reject(new TrxRentError({ code: 'INTERNAL_ERROR', message: 'a spend of an earlier run is only looked up, never run again' })),
            () => ({ outcomes: {}, what: '' }),
            open.token,
          );
    this.guard = new SpendGuard({
      allowSpend: Boolean(options.allowSpend),
      spendWithoutConfirmation: options.spendWithoutConfirmation,
      limits: resolveLimits(options.limits),
      // The guard sanitises each line (server text in it cannot drive the terminal).
      log: (line) => log(`trx-rent mcp: ${line}`),
      // With a state folder, spends are written down there and outlive the process (else in
      // memory); a spend an earlier process left unsettled is looked up (never run again) at
      // start-up and before the next spend. On a shared store, every spend is written there, and
      // the servers on it share the session cap.
      ...(this.#store
        ? { shared: async (caps, total) => (await import('./spend-shared.js')).SharedSpends.open(this.#store!, caps, total) }
        : options.stateDir
          ? {
              journal: async () => {
                const [{ fileStore }, { SpendJournal }] = await Promise.all([import('../store/file.js'), import('./spend-journal.js')]);
                return new SpendJournal(await fileStore(options.stateDir!).journal('spends'));
              },
            }
          : {}),
      restore,
    });
    // TRX_RENT_LOG=debug: the SDK's debug lines (an x402 settlement's tx among them) go to the
    // same sink, one sanitised line each.
    this.#debug = { debug: (message) => log(oneLine(message)) };
    this.api = new TrxRent({
      logger: this.#debug,
      baseUrl: options.baseUrl,
      // '' rather than undefined: the SDK would fall back to process.env; the caller decided.
      apiKey: options.apiKey ?? '',
      // Order requests are noted by the spend that sends them (its journal: effects.ts).
      fetch: recordingFetch(options.fetch),
      // ensure_resources and send_token read the same node as x402 payments.
      tronNode: options.tronFullNode,
      tronNodeApiKey: options.tronNodeApiKey,
      headers: options.userAgent ? { 'user-agent': options.userAgent } : undefined,
      // An agent waits on the tool call: a long Retry-After becomes a RATE_LIMITED tool error.
      retry: { maxRetryAfterMs: 10_000 },
      // send_token's signed transfers outlive the process: a retry after a restart lands the same
      // transaction (on a shared store, a retry through another server too).
      transferStore: this.#store
        ? storeTransfers(this.#store, 'mcp.transfers')
        : fileTransferStore(join(options.stateDir ?? join(homedir(), '.trx-rent', 'mcp'), 'transfers')),
    });
  }

  /** Let go of what the server holds on its store (its spend journal's holds; the store, when opened from a URL). */
  async close(): Promise<void> {
    await this.guard.close();
    await this.#store?.close();
  }

  /**
   * At start-up, when spending is allowed: what an earlier process left unsettled in the spend
   * journal is held again and looked up, in the background (each spend waits for it anyway). Once.
   */
  startUp(): void {
    if (this.#started || !this.guard.allowSpend) return;
    this.#started = true;
    void this.guard.reconcile();
  }

  /** USD the x402 payments of this server count against its budget: its client's, and those an earlier process left unknown. */
  x402Spent(): string {
    return attoToUsd((this.#x402 ? usdToAtto(this.#x402.spent) : 0n) + this.guard.records.x402Carried);
  }

  /**
   * The x402 client of this server process (one budget for every session, less what an earlier
   * process's unknown payments count: call it once the guard's `restore()` is done).
   */
  x402(): X402Client {
    if (this.#x402) return this.#x402;
    const { wallet, baseUrl } = this.options;
    const payers: Payer[] = [];
    if (wallet?.tron) {
      payers.push(
        tronPayer({
          privateKey: wallet.tron,
          ...(this.options.tronFullNode ? { fullNode: this.options.tronFullNode } : {}),
          ...(this.options.gasfreeRelayer ? { gasfreeRelayer: this.options.gasfreeRelayer } : {}),
        }),
      );
    }
    if (wallet?.evm) payers.push(evmPayer({ privateKey: wallet.evm }));
    if (!payers.length) {
      throw new TrxRentError({
        code: 'NO_WALLET',
        message:
          'No x402 wallet: the user can set TRX_RENT_X402_TRON_KEY or TRX_RENT_X402_EVM_KEY (or pass --key-file) and restart the server; nothing was paid.',
      });
    }
    const { maxPayment, x402Budget } = this.guard.limits;
    // What an earlier process paid with an unknown outcome counts against this one's budget.
    const left = usdToAtto(x402Budget, 'x402Budget') - this.guard.records.x402Carried;
    this.#x402 = new X402Client({
      baseUrl,
      payers,
      maxPayment,
      budget: attoToUsd(left > 0n ? left : 0n),
      fetch: this.options.fetch,
      headers: this.options.userAgent ? { 'user-agent': this.options.userAgent } : undefined,
      onPayment: (quote) => this.#confirmPayment(quote),
      logger: this.#debug,
    });
    return this.#x402;
  }

  /** Before an x402 payment is signed: the user's approval and a log line. */
  async #confirmPayment(quote: PaymentQuote): Promise<void> {
    const call = currentCall.getStore();
    const what = `pay ${quote.amount_usd} USD in ${quote.symbol} on ${quote.networkLabel} (${quote.scheme}) for ${quote.method} ${quote.path}`;
    if (!call) throw new SpendRefusedError('DECLINED', `${what}: outside a tool call; nothing was paid.`);
    try {
      await this.guard.confirm(call.ask, `${what[0]!.toUpperCase()}${what.slice(1)} (paid by ${quote.payer} to ${quote.payTo})`);
    } catch (error) {
      this.guard.log(`refused ${call.tool}: ${what} (${(error as TrxRentError).code})`);
      throw error;
    }
    // Written down before it is signed: a server restarted after a lost answer still counts it.
    const key = await this.guard.records.paying(call.tool, what, {
      amount_usd: quote.amount_usd,
      amount: quote.amount,
      symbol: quote.symbol,
      network: quote.network,
      scheme: quote.scheme,
      pay_to: quote.payTo,
      call: `${quote.method} ${quote.path}`,
    });
    (call.payments ??= []).push(key);
    this.guard.log(`paying ${call.tool}: ${what}`);
  }

  /** The x402 call in progress ended (`error` undefined: answered): its payment settled in the journal by the SDK's one verdict, or left open while unknown. */
  async paymentEnded(error?: unknown): Promise<void> {
    const call = currentCall.getStore();
    for (const key of call?.payments?.splice(0) ?? []) await this.guard.records.paid(key, call!.tool, error);
  }
}

/** `spec` as a store opened on first use; `close` closes it only when it was opened here (from a URL). */
function lazyStore(spec: string | Store): Store {
  if (typeof spec !== 'string') return { kind: spec.kind, where: spec.where, journal: (name) => spec.journal(name), close: async () => {} };
  let opened: Promise<Store> | undefined;
  const open = () => (opened ??= import('../store/open.js').then((m) => m.openStore(spec)));
  return {
    kind: 'lazy',
    where: '',
    journal: async (name) => (await open()).journal(name),
    close: async () => void (await (await opened?.catch(() => undefined))?.close()),
  };
}
