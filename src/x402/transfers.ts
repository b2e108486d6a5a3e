/**
 * Build and sign TRON transfers locally for `send()` / `sendBatch()`, without tronweb: the
 * transaction is encoded by hand (src/tron/transaction.ts), signed with the key in this process,
 * and returned as the `signed_tx` string the API takes. Nothing is broadcast here.
 * @module
 */
import { TrxRentError, ValidationError } from '../errors/index.js';
import { fetchJson } from '../http/response.js';
import { Transport } from '../http/transport.js';
import { type RefBlock, buildTrc20Transfer, signTransaction, privateKeyToTronAddress } from '../protocol/tron-transaction.js';
import { isTronAddress } from '../utils/address.js';
import { decimalToAtomic } from '../utils/units.js';
import { NETWORKS, TRON_FULL_NODES, findToken, tokenBySymbol, tronNetworkName } from '../protocol/networks.js';

/** What {@link signTrc20Transfer} signs: a TRC-20 transfer built against a full node. */
export interface SignTrc20TransferParams {
  /** Sender's private key (hex, with or without 0x). Used here, never sent. */
  privateKey: string;
  to: string;
  /** Decimal amount in token units, e.g. '12.5'. */
  amount: string;
  /** `USDT` (default), `USDC`, `USDD`, or a TRC-20 contract address. */
  token?: string;
  /** Token decimals when `token` is a contract this package does not know. */
  decimals?: number;
  /** TRON network (alias accepted). Default mainnet. */
  network?: string;
  /** Reference block (TAPOS). When absent, fetched from `fullNode`; `'offline'` uses a zero block (rejected by real nodes). */
  refBlock?: RefBlock | 'offline';
  /** Full node for the reference block. Default TronGrid of the network. */
  fullNode?: string;
  /** Lifetime of the transaction. Default 60 s. */
  expirationSeconds?: number;
  /** Energy fee limit in SUN. Default 30 TRX. */
  feeLimitSun?: number;
  /** fetch used for the full-node calls. Default: the global fetch. */
  fetch?: typeof fetch;
}

/** A signed TRC-20 transfer, ready for `send()`. */
export interface SignedTransfer {
  /** Transaction id. */
  txID: string;
  /** Sender address (base58). */
  from: string;
  /** The string `send()` / `sendBatch()` take as `signed_tx` (JSON of the signed transaction). */
  signed_tx: string;
  /** The signed transaction as an object. */
  transaction: { txID: string; raw_data: Record<string, unknown>; raw_data_hex: string; signature: string[]; visible: false };
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message, details: { field } });
}

/** The `wallet/getnowblock` URL of a full node. */
export function nowBlockUrl(fullNode: string): string {
  return `${fullNode.replace(/\/+$/, '')}/wallet/getnowblock`;
}

/** The TAPOS reference (number and hash) of a `getnowblock` answer; throws INVALID_RESPONSE when it has none. */
export function refBlockOf(block: unknown, source: string): RefBlock {
  const b = block as { blockID?: unknown; block_header?: { raw_data?: { number?: unknown } } } | undefined;
  const number = b?.block_header?.raw_data?.number;
  const hash = b?.blockID;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash)) {
    throw new TrxRentError({ code: 'INVALID_RESPONSE', message: `${source} sent no usable block for the transaction reference` });
  }
  return { number, hash };
}

/**
 * Latest block of a TRON full node, as a TAPOS reference. Goes through the same transport as
 * every other request of this package (deadline, no redirects, bounded body).
 */
export async function fetchReferenceBlock(fullNode: string, fetchImpl?: typeof fetch, timeoutMs = 15_000): Promise<RefBlock> {
  const block = await fetchJson(new Transport({ fetch: fetchImpl }), nowBlockUrl(fullNode), { method: 'POST', body: '{}', timeoutMs });
  return refBlockOf(block, fullNode);
}

/** Build and sign a TRC-20 `transfer(to, amount)` locally; the result goes into `send()` as `signed_tx`. */
export async function signTrc20Transfer(params: SignTrc20TransferParams): Promise<SignedTransfer> {
  const networkName = tronNetworkName(params.network ?? NETWORKS.TRON_MAINNET);
  if (!networkName) throw invalid('network', `Not a TRON network: ${params.network}`);
  if (!isTronAddress(params.to)) throw invalid('to', `to is not a TRON address: ${params.to}`);
  const ref = params.token ?? 'USDT';
  const network = `tron:${networkName}`;
  const token = isTronAddress(ref) ? findToken(ref, network) : tokenBySymbol(ref, network);
  const contract = isTronAddress(ref) ? ref : token?.address;
  if (!contract) throw invalid('token', `Unknown token ${ref} on ${network}`);
  const decimals = token?.decimals ?? params.decimals;
  if (decimals === undefined) throw invalid('decimals', `decimals are required for ${contract}`);
  const amount = decimalToAtomic(params.amount, decimals, 'amount');
  if (amount <= 0n) throw invalid('amount', 'amount must be positive');
  let from: string;
  try {
    from = privateKeyToTronAddress(params.privateKey);
  } catch {
    throw invalid('privateKey', 'privateKey must be 64 hex characters, with or without 0x');
  }
  const refBlock =
    params.refBlock === 'offline' ? undefined : (params.refBlock ?? (await fetchReferenceBlock(params.fullNode ?? TRON_FULL_NODES[networkName], params.fetch)));
  const unsigned = buildTrc20Transfer({
    from,
    contract,
    to: params.to,
    amount,
    ...(refBlock ? { refBlock } : {}),
    expirationMs: (params.expirationSeconds ?? 60) * 1000,
    ...(params.feeLimitSun !== undefined ? { feeLimitSun: params.feeLimitSun } : {}),
  });
  const signed = signTransaction(unsigned, params.privateKey);
  const transaction = { txID: signed.txID, raw_data: signed.raw_data, raw_data_hex: signed.raw_data_hex, signature: signed.signature, visible: false as const };
  return { txID: signed.txID, from, signed_tx: JSON.stringify(transaction), transaction };
}
