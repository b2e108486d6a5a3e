/**
 * Lazy loading of the optional peers. Nothing here runs at import time: viem, @x402/* and
 * tronweb load on the first payment that needs them, @modelcontextprotocol/sdk when
 * `trx-rent mcp` starts, yaml when a YAML rules file is read, @aws-sdk/client-kms when a KMS
 * signer is made, and a missing one becomes a
 * MissingPeerDependencyError naming the exact `npm install …`.
 * @module
 */
import { MissingPeerDependencyError } from '../errors/index.js';

// Keep in step with package.json (peerDependencies, devDependencies).
/**
 * The versions of the optional peer dependencies this package was built and tested with; a
 * MissingPeerDependencyError's install hint names these (e.g. `npm install viem@2.57.1`).
 */
export const PEER_VERSIONS = {
  viem: '2.57.1',
  '@x402/core': '2.27.0',
  '@x402/evm': '2.27.0',
  tronweb: '6.5.1',
  '@modelcontextprotocol/sdk': '1.32.2',
  yaml: '2.9.1',
  '@aws-sdk/client-kms': '3.1178.0',
} as const;

type PeerName = keyof typeof PEER_VERSIONS;

const cache = new Map<string, Promise<unknown>>();

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  const message = String((error as Error | undefined)?.message ?? '');
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(message);
}

/** The packages a feature needs together, each with a literal import() to check it is there. */
type Group = ReadonlyArray<readonly [PeerName, () => Promise<unknown>]>;

/**
 * Paying x402 calls needs all three (the client, the EVM scheme, viem's signing): when one is
 * missing, every missing one is named in the same error, so one `npm install` fixes it.
 */
const PAYMENT: Group = [
  ['viem', () => import('viem/accounts')],
  ['@x402/core', () => import('@x402/core/client')],
  ['@x402/evm', () => import('@x402/evm/exact/client')],
];

/** Which of `group`'s packages cannot be imported (all of them missing is one error, one install). */
async function missingOf(packages: PeerName[], group: Group | undefined): Promise<PeerName[]> {
  if (!group) return packages;
  const results = await Promise.allSettled(group.map(([, importer]) => importer()));
  const missing = group
    .filter((_, i) => {
      const r = results[i]!;
      return r.status === 'rejected' && isMissing(r.reason);
    })
    .map(([name]) => name);
  return missing.length ? missing : packages;
}

async function load<T>(specifier: string, importer: () => Promise<T>, packages: PeerName[], feature: string, group?: Group): Promise<T> {
  let pending = cache.get(specifier) as Promise<T> | undefined;
  if (!pending) {
    pending = importer().catch(async (error: unknown) => {
      cache.delete(specifier);
      if (isMissing(error)) {
        const missing = await missingOf(packages, group);
        throw new MissingPeerDependencyError(
          missing.map((p) => `${p}@${PEER_VERSIONS[p]}`),
          feature,
          error,
        );
      }
      throw error;
    });
    cache.set(specifier, pending);
  }
  return pending;
}

// Each import() names its module literally so bundlers keep it external and lazy.
/** `viem`, imported on first call and cached. Not installed: rejects with MissingPeerDependencyError (viem). */
export const loadViem = () => load('viem', () => import('viem'), ['viem'], 'TIP-712/EIP-712 signing and verification');
/** `viem/accounts` (private-key accounts), imported on first call. Not installed: MissingPeerDependencyError (viem). */
export const loadViemAccounts = () =>
  load('viem/accounts', () => import('viem/accounts'), ['viem'], 'Paying x402 calls (signing with a private key)', PAYMENT);
/** `@x402/core/client`, imported on first call. Not installed: MissingPeerDependencyError (@x402/core, viem). */
export const loadX402Core = () =>
  load('@x402/core/client', () => import('@x402/core/client'), ['@x402/core'], 'Paying x402 calls', PAYMENT);
/** `@x402/evm/exact/client` (USDC on Base), imported on first call. Not installed: MissingPeerDependencyError (@x402/evm, viem). */
export const loadX402Evm = () =>
  load('@x402/evm/exact/client', () => import('@x402/evm/exact/client'), ['@x402/evm'], 'Paying x402 calls in USDC on Base', PAYMENT);
/** `tronweb`, imported on first call. Not installed: MissingPeerDependencyError (tronweb). */
export const loadTronWeb = () => load('tronweb', () => import('tronweb'), ['tronweb'], 'Building transactions with tronweb');

const MCP = 'The MCP server (trx-rent mcp)';
/** `@modelcontextprotocol/sdk/server/index.js` (the low-level MCP server), imported on first call. Not installed: MissingPeerDependencyError (@modelcontextprotocol/sdk). */
export const loadMcpServer = () =>
  load('@modelcontextprotocol/sdk/server/index.js', () => import('@modelcontextprotocol/sdk/server/index.js'), ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/types.js` (request and result schemas), imported on first call. */
export const loadMcpTypes = () =>
  load('@modelcontextprotocol/sdk/types.js', () => import('@modelcontextprotocol/sdk/types.js'), ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/server/stdio.js`, imported on first call. */
export const loadMcpStdio = () =>
  load('@modelcontextprotocol/sdk/server/stdio.js', () => import('@modelcontextprotocol/sdk/server/stdio.js'), ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/server/streamableHttp.js` (Node's http), imported on first call. */
export const loadMcpStreamableHttp = () =>
  load('@modelcontextprotocol/sdk/server/streamableHttp.js', () => import('@modelcontextprotocol/sdk/server/streamableHttp.js'), ['@modelcontextprotocol/sdk'], MCP);
/** `@aws-sdk/client-kms` (signing with an AWS KMS key), imported on first call. Not installed: MissingPeerDependencyError (@aws-sdk/client-kms). */
export const loadAwsKms = () => load('@aws-sdk/client-kms', () => import('@aws-sdk/client-kms'), ['@aws-sdk/client-kms'], 'Signing with an AWS KMS key');
/** `yaml` (YAML rules files), imported on first call. Not installed: MissingPeerDependencyError (yaml). */
export const loadYaml = (): Promise<typeof import('yaml')> => load('yaml', () => import('yaml'), ['yaml'], 'Reading YAML rules files');
