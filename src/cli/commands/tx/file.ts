/**
 * What the `tx` subcommands share: a transaction file (tronweb's JSON, unsigned or partly signed;
 * written back atomically, so an interrupted run leaves the old file or the new one) and the TRON
 * node's multi-signature calls (`getsignweight`, `broadcasttransaction`) on the node every chain
 * command reads (`--tron-node`, TRX_RENT_TRON_NODE, the profile's, the mock's own, else TronGrid).
 * @module
 */
import type { SignableTransaction } from '../../../protocol/signers/signature.js';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';

/** Read the transaction in `path`: an object with `txID` and `raw_data` (bare, or as `{ signed_tx }` / `{ transaction }`). */
export async function readTxFile(path: string): Promise<SignableTransaction> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      `${path} is not JSON`,
      'a transaction file holds the JSON tronweb builds: { txID, raw_data, raw_data_hex, signature? }',
      'VALIDATION_ERROR',
    );
  }
  const inner =
    parsed && typeof parsed === 'object'
      ? ((parsed as { signed_tx?: unknown; transaction?: unknown }).signed_tx ?? (parsed as { transaction?: unknown }).transaction ?? parsed)
      : parsed;
  const tx = inner as Partial<SignableTransaction> | null;
  if (!tx || typeof tx !== 'object' || typeof tx.txID !== 'string' || !tx.raw_data || typeof tx.raw_data !== 'object') {
    throw new UsageError(`${path} holds no transaction`, 'expected { txID, raw_data, raw_data_hex, signature? }', 'VALIDATION_ERROR');
  }
  if (tx.signature !== undefined && (!Array.isArray(tx.signature) || tx.signature.some((s) => typeof s !== 'string'))) {
    throw new UsageError(`${path}: signature must be a list of hex strings`, undefined, 'VALIDATION_ERROR');
  }
  return tx as SignableTransaction;
}

/** Write `tx` to `path` through a temporary file in the same directory and a rename. */
export async function writeTxFile(path: string, tx: SignableTransaction): Promise<void> {
  const { rename, writeFile, rm } = await import('node:fs/promises');
  const { randomBytes } = await import('node:crypto');
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, `${JSON.stringify(tx, null, 2)}\n`, { flag: 'wx' });
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw new UsageError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** One POST to the TRON node: its JSON answer; `{ Error }` (java-tron's failed call) becomes a CliError. */
export async function nodePost(ctx: Context, flag: string | undefined, method: string, body: unknown): Promise<Record<string, unknown>> {
  const [{ Transport }, { parseJson, INVALID_JSON }, { DEFAULT_TRON_NODE }] = await Promise.all([
    import('../../../http/transport.js'),
    import('../../../http/response.js'),
    import('../../../tron/node.js'),
  ]);
  const setting = await ctx.chain.tronNode(flag);
  const base = (setting.url ?? DEFAULT_TRON_NODE).replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (setting.apiKey) headers['TRON-PRO-API-KEY'] = setting.apiKey;
  const url = `${base}/wallet/${method}`;
  const { response, text } = await new Transport({ fetch: ctx.fetch }).send(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    timeoutMs: 20_000,
    label: `POST ${url}`,
  });
  const answer = parseJson(text);
  if (!response.ok || answer === INVALID_JSON || !answer || typeof answer !== 'object') {
    throw new CliError('NODE_ERROR', `the TRON node answered ${method} with ${response.status}${response.ok ? ' and no JSON' : ''}`, { hint: `node: ${base}` });
  }
  const error = (answer as { Error?: unknown }).Error;
  if (typeof error === 'string') throw new CliError('NODE_ERROR', `the TRON node refused ${method}: ${error}`, { hint: `node: ${base}` });
  return answer as Record<string, unknown>;
}

/** Where a multi-signature transaction stands, from the node's `getsignweight`. */
export interface Approvals {
  tx_id: string;
  permission_id: number;
  permission_name: string | undefined;
  threshold: number;
  /** Who signed, with each key's weight in the permission. */
  approved: Array<{ address: string; weight: number }>;
  current_weight: number;
  missing_weight: number;
  /** The weight reaches the threshold: the transaction can be broadcast. */
  ready: boolean;
  /** ms since the epoch, from raw_data. */
  expiration: number | undefined;
}

/** `getsignweight` for `tx`, as {@link Approvals}; a refusal by the node (PERMISSION_ERROR …) is a CliError naming it. */
export async function approvalsOf(ctx: Context, flag: string | undefined, tx: SignableTransaction): Promise<Approvals> {
  const { toTronAddress } = await import('../../../utils/address.js');
  const { permissionIdOf } = await import('../../../protocol/signer.js');
  const answer = await nodePost(ctx, flag, 'getsignweight', { ...tx, visible: false });
  const result = (answer.result ?? {}) as { code?: string; message?: string };
  if (result.code && result.code !== 'NOT_ENOUGH_PERMISSION') {
    throw new CliError('PERMISSION_DENIED', `the node refuses the signatures: ${result.code}${result.message ? ` (${result.message})` : ''}`, {
      hint: "see the account's permissions with getaccount; a transaction names its permission (Permission_id) before the first signature",
    });
  }
  const permission = (answer.permission ?? {}) as { permission_name?: string; threshold?: number; keys?: Array<{ address: string; weight?: number }> };
  const weightOf = (address: string) => permission.keys?.find((k) => toTronAddress(k.address) === address)?.weight ?? 0;
  const approved = ((answer.approved_list ?? []) as string[]).map((a) => toTronAddress(a)).map((address) => ({ address, weight: weightOf(address) }));
  const threshold = Number(permission.threshold ?? 0);
  const current = Number(answer.current_weight ?? 0);
  const expiration = Number((tx.raw_data as { expiration?: unknown }).expiration);
  return {
    tx_id: tx.txID,
    permission_id: permissionIdOf(tx),
    permission_name: permission.permission_name,
    threshold,
    approved,
    current_weight: current,
    missing_weight: Math.max(0, threshold - current),
    ready: current >= threshold && threshold > 0,
    expiration: Number.isSafeInteger(expiration) ? expiration : undefined,
  };
}
