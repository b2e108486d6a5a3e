/**
 * What to do about an API or network error (the `hint` of its report): by its code, naming the
 * setting (base URL, API key, TRON node) and where it came from, the permission the command needs,
 * the balance it lacked.
 */
import { RateLimitedError, type TrxRentError } from '../errors/index.js';
import type { PERMISSIONS } from './facts.js';
import { amountOf, formatDuration } from './format.js';
import { type Source, describeSource } from './settings.js';

/** What the run knew when it failed: the settings in use and their sources, for the hints. */
export interface HintContext {
  /** Base URL the command talked to, when known. */
  baseUrl?: string | undefined;
  /** Where the base URL came from (`--base-url`, `TRX_RENT_BASE_URL`, `profile work`). */
  baseUrlSource?: Source | undefined;
  /** Where the API key came from, when one was sent. */
  apiKeySource?: Source | undefined;
  /** The command path, e.g. `orders get`. */
  command?: string | undefined;
  /** Money the command needed (for INSUFFICIENT_BALANCE), in SUN. */
  spending?: { sun: number; currency: 'TRX' | 'USDT' } | undefined;
  /** The TRON node the command read, and where that setting came from (for node failures' hints). */
  tronNode?: { url: string; source: Source } | undefined;
  /** Looks up the balance for the INSUFFICIENT_BALANCE hint; may fail. */
  balance?: (() => Promise<{ trx: number; usdt: number; trx_locked: number }>) | undefined;
}

/** The permission each command needs (for the FORBIDDEN hint). */
const PERMISSION_FOR: Record<string, (typeof PERMISSIONS)[number]> = {
  buy: 'create_orders',
  'orders list': 'view_orders',
  'orders get': 'view_orders',
  'orders wait': 'view_orders',
  balance: 'view_balance',
  history: 'view_balance',
  'history summary': 'view_balance',
};

/** The hint for an API or network error, when there is something to do about it. */
export async function hintFor(error: TrxRentError, hc: HintContext): Promise<string | undefined> {
  const details = error.details ?? {};
  const node = tronNodeHint(error, hc);
  if (node) return node;
  switch (error.code) {
    case 'SENDER_NOT_ACTIVATED':
      return activationHint(details.address, hc, '10', '; 1-2 TRX also pays the bandwidth');
    case 'PERMISSION_DENIED':
      return typeof details.permission_id === 'number'
        ? `sign with keys of permission ${details.permission_id} of ${String(details.address)} whose weights reach its threshold (a --key-file each, with --from and --permission-id), or name a permission that allows TRC-20 transfers; nothing was spent`
        : undefined;
    case 'TARGET_NOT_ACTIVATED':
      return targetActivationHint(details.address, hc);
    case 'TARGET_IS_CONTRACT':
      return 'rent to the account that sends the transactions (the sender of a token transfer), not to the contract';
    case 'SIMULATION_FAILED':
      return details.reverted
        ? 'the token contract refuses this transfer (a frozen or blacklisted address, a paused token); nothing was spent'
        : 'the node could not run the transfer; check the token and the addresses; nothing was spent';
    case 'INSUFFICIENT_BALANCE':
    case 'INSUFFICIENT_FUNDS': {
      const need = hc.spending;
      let available: number | undefined;
      try {
        const balance = hc.balance ? await hc.balance() : undefined;
        if (balance) available = need?.currency === 'USDT' ? balance.usdt : balance.trx;
      } catch {
        // The hint is best effort; the error itself is what matters.
      }
      const currency = need?.currency ?? 'TRX';
      const unit = (n: number) => amountOf(n, currency);
      const parts: string[] = [];
      if (available !== undefined) parts.push(`balance ${unit(available)}`);
      if (need) parts.push(`needed ${unit(need.sun)}`);
      if (available !== undefined && need && need.sun > available) parts.push(`short by ${unit(need.sun - available)}`);
      parts.push('top up with `trx-rent deposit info`');
      return parts.join('; ');
    }
    case 'RATE_LIMITED': {
      const ms = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
      return ms !== undefined ? `wait ${formatWait(ms)} before retrying, as the server's Retry-After asks` : 'wait a minute before retrying';
    }
    case 'UNAUTHORIZED':
      return unauthorizedHint(hc);
    case 'FORBIDDEN': {
      const permission = hc.command ? PERMISSION_FOR[hc.command] : undefined;
      return permission
        ? `this key lacks the ${permission} permission; create one that has it with \`trx-rent keys create --permissions ${permission}\``
        : 'this key lacks the permission; create a key with it (`trx-rent keys create`)';
    }
    case 'NOT_FOUND':
    case 'ORDER_NOT_FOUND':
      return hc.command === 'api'
        ? 'check the path (trx-rent api PATH: below /api/v1 unless it starts with /api/, /x402/ or /__mock/; a field makes it a POST unless you name the METHOD)'
        : hc.command?.startsWith('orders')
          ? 'check the id with `trx-rent orders list`'
          : hc.command?.startsWith('webhooks')
            ? 'check the id with `trx-rent webhooks list`'
            : 'check the id';
    case 'VALIDATION_ERROR':
    case 'BELOW_MINIMUM_ORDER':
    case 'INVALID_AMOUNT': {
      const field = typeof details.field === 'string' ? details.field : undefined;
      const min = details.min;
      if (field && min !== undefined) {
        // A duration in the CLI's own units (--duration 5m), not the API's seconds.
        if (/duration/.test(field) && Number.isFinite(Number(min)))
          return `--duration must be at least ${formatDuration(Number(min))} (e.g. --duration ${formatDuration(Number(min))})`;
        return `${field} must be at least ${String(min)}`;
      }
      const range = /duration: must be between (\d+) and (\d+) seconds/.exec(error.message);
      if (range)
        return `--duration must be between ${formatDuration(Number(range[1]))} and ${formatDuration(Number(range[2]))}, e.g. --duration ${formatDuration(Number(range[1]))}`;
      return field ? `check ${field}` : 'check the arguments (see --help)';
    }
    case 'INVALID_ADDRESS':
      return 'a TRON address starts with T and has 34 base58 characters';
    case 'INSECURE_TRANSPORT':
      return 'use an https:// base URL (--base-url, TRX_RENT_BASE_URL or the profile); plain http is allowed only to localhost';
    case 'PRICE_EXCEEDED':
      return 'raise --max-price, or place a LIMIT order (--type LIMIT) that waits for the price';
    case 'PROVIDER_UNAVAILABLE':
      return 'no provider can fill this now; try another duration or amount, or again later';
    case 'DUPLICATE_REQUEST':
      return 'this idempotency key was used with different parameters; use a new --idempotency-key';
    case 'MAINTENANCE':
      return 'the service is in maintenance; try again later';
    case 'CONNECTION_ERROR':
      return connectionHint(details, hc);
    case 'TIMEOUT': {
      const order = /^Order (\S+) still/.exec(error.message)?.[1];
      return order
        ? `it may still fill: run \`trx-rent orders wait ${order}\` again, or raise --timeout`
        : `the server did not answer in time; check the network${hc.baseUrlSource ? ` and the base URL (from ${describeSource(hc.baseUrlSource)})` : ''}, then try again (safe: orders and withdrawals carry an idempotency key)`;
    }
    case 'ORDER_FAILED': {
      if (details.failure_reason === 'TARGET_NOT_ACTIVATED')
        return targetActivationHint(details.address ?? (details.order as { target_address?: unknown } | undefined)?.target_address, hc);
      if (details.failure_reason === 'TARGET_IS_CONTRACT')
        return 'rent to the account that sends the transactions (the sender of a token transfer), not to the contract';
      const order = (details.order ?? {}) as { id?: unknown };
      const id = order.id === undefined ? '<id>' : String(order.id);
      if (details.status === 'PARTIALLY_FILLED') return `part of it was delivered: see the fills with \`trx-rent orders get ${id}\``;
      return `nothing was delivered; see \`trx-rent orders get ${id}\` and try again, perhaps with a higher --max-price`;
    }
    case 'CONFIGURATION_ERROR':
      return 'pass --base-url URL, set TRX_RENT_BASE_URL, run `trx-rent login`, or use --mock';
    case 'INVALID_RESPONSE':
      return 'the server answered something unexpected; run with --verbose and check --base-url';
    case 'INTERNAL_ERROR':
      return 'a server-side failure; try again later';
    case 'BROADCAST_FAILED':
      return 'the TRON network refused the transaction (expired, already broadcast, or not enough TRX); sign a new one';
    default:
      return undefined;
  }
}

/** How to activate `address` with TRX: `trx-rent mock fund` on the mock, else send it TRX. */
function activationHint(address: unknown, hc: HintContext, mockTrx: string, more = ''): string {
  const who = typeof address === 'string' ? address : 'ADDRESS';
  return hc.tronNode && /mock/.test(hc.tronNode.source.kind)
    ? `activate it with TRX: \`trx-rent mock fund ${who} --trx ${mockTrx}\` on the mock`
    : `send ${who} some TRX first (any amount activates it${more})`;
}

/** A rental's target that is no account: activate it, or let `ensure --activate` do it. */
function targetActivationHint(address: unknown, hc: HintContext): string {
  const rerun =
    hc.command === 'ensure' ? ', or run ensure again with --activate (a funding wallet from --key-file sends it 1 SUN and pays the account-creation fee)' : '';
  return `${activationHint(address, hc, '1')}${rerun}; then rent again`;
}

/** A wait for people: `800 ms`, `42 s`, `3 min`. */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  return `${Math.ceil(s / 60)} min`;
}

/**
 * A failure of the TRON node (not of the API): the hint names the node setting and where it came
 * from, not the base URL, which is fine.
 */
function tronNodeHint(error: TrxRentError, hc: HintContext): string | undefined {
  const node = hc.tronNode;
  if (!node) return undefined;
  const details = error.details ?? {};
  const url = typeof details.url === 'string' ? details.url : undefined;
  let sameOrigin = false;
  try {
    sameOrigin = url !== undefined && new URL(url).origin === new URL(node.url).origin;
  } catch {
    // not URLs: not the node's
  }
  const isNodeCall = error.code === 'NODE_ERROR' || / \/wallet(solidity)?\//.test(error.message);
  if (!(isNodeCall || (sameOrigin && ['CONNECTION_ERROR', 'TIMEOUT', 'REDIRECT_REFUSED', 'RESPONSE_TOO_LARGE'].includes(error.code)))) return undefined;
  const from = describeSource(node.source);
  const fix = fixTronNode(node.source);
  if (details.status === 429 && node.source.kind === 'default') {
    return `TronGrid (${node.url}, the default TRON node) limits calls without a key: set TRX_RENT_TRON_NODE_API_KEY to a TronGrid API key, or ${fix}`;
  }
  if (error.code === 'CONNECTION_ERROR' && details.cause === 'refused') return `nothing is listening at the TRON node ${node.url} (from ${from}); ${fix}`;
  return `the TRON node ${node.url} (from ${from}) failed, not the API; ${fix}`;
}

/** How to change the TRON node where it came from. */
function fixTronNode(source: Source): string {
  switch (source.kind) {
    case 'flag':
      return 'fix --tron-node';
    case 'env':
      return `fix ${source.name} (or unset it)`;
    case 'profile':
      return `fix it with \`trx-rent config set tron_node URL --profile ${source.profile}\``;
    case 'mock':
    case 'running-mock':
    case 'reference-mock':
      return "the mock's node is the mock itself: is it still running? (or pass --tron-node URL)";
    default:
      return 'pass --tron-node URL or set TRX_RENT_TRON_NODE';
  }
}

/** How to change the base URL where it came from. */
function fixBaseUrl(source: Source | undefined): string {
  switch (source?.kind) {
    case 'flag':
      return 'fix --base-url';
    case 'env':
      return `fix ${source.name} (or unset it to use the profile's)`;
    case 'profile':
      return `fix it with \`trx-rent config set base_url URL --profile ${source.profile}\``;
    case 'mock':
      return 'the embedded mock stopped; run again';
    case 'running-mock':
      return `the \`trx-rent mock\` recorded in ${source.path} stopped; start it again, or pass --base-url URL`;
    default:
      return 'pass --base-url URL or set TRX_RENT_BASE_URL';
  }
}

/** What to do about a connection failure, by its kind (details.cause from the transport), naming the URL and its source. */
function connectionHint(details: Record<string, unknown>, hc: HintContext): string {
  const url = typeof details.url === 'string' ? details.url : hc.baseUrl;
  let host = url ?? 'the API';
  try {
    if (url) host = new URL(url).host;
  } catch {
    // keep the text
  }
  const from = hc.baseUrlSource ? ` (base URL from ${describeSource(hc.baseUrlSource)})` : '';
  const fix = fixBaseUrl(hc.baseUrlSource);
  switch (details.cause) {
    case 'refused':
      return `nothing is listening at ${host}${from}: is the server running (\`trx-rent mock\` for a local one)? otherwise ${fix}`;
    case 'dns':
      return `the host name in ${url ?? 'the base URL'}${from} does not resolve: check its spelling and your DNS; ${fix}`;
    case 'tls':
      return `the TLS handshake with ${host} failed${details.syscode ? ` (${String(details.syscode)})` : ''}: an http:// server needs an http:// base URL; an expired or self-signed certificate must be fixed on the server (or trusted with NODE_EXTRA_CA_CERTS)${from}`;
    case 'timeout':
      return `${host} did not answer in time${from}: check the network, a firewall or proxy, then try again`;
    case 'reset':
      return `${host} dropped the connection${from}: try again (safe: orders and withdrawals carry an idempotency key)`;
    case 'unreachable':
      return `no route to ${host}${from}: check the network connection`;
    default:
      if (details.syscode === 'BAD_PORT')
        return `fetch refuses to connect to ${url ?? host}: its port is one browsers block as unsafe${from}; serve the API on another port`;
      return `is the API at ${url ?? 'the base URL'} reachable?${from} ${fix}`;
  }
}

/** A rejected key: where it came from, and how to fix that source (a stale environment variable overrides `login`). */
function unauthorizedHint(hc: HintContext): string {
  const source = hc.apiKeySource;
  switch (source?.kind) {
    case 'env':
      return `the key in ${source.name} was rejected: set a valid one, or \`unset ${source.name}\` to use the profile's key (${source.name} overrides \`trx-rent login\`)`;
    case 'file':
      return `the key in ${source.path} (${source.flag}) was rejected: put a valid key in that file`;
    case 'profile':
      return `the key saved in profile ${source.profile} was rejected (revoked?): run \`trx-rent login --profile ${source.profile}\` with a valid key`;
    case 'stdin':
      return 'the key read from stdin was rejected: check it';
    case 'mock':
      return 'the embedded mock rejected its own key: run again';
    default:
      return 'set TRX_RENT_API_KEY, pass --api-key-file FILE, or run `trx-rent login`';
  }
}
