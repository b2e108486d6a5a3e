/**
 * Lazy loading of the optional peers. Nothing here runs at import time: viem, @x402/* and
 * tronweb load on the first payment that needs them, @modelcontextprotocol/sdk when
 * `trx-rent mcp` starts, yaml when a YAML rules file is read, pg when a PostgreSQL store is opened, @aws-sdk/client-kms when a KMS
 * signer is made, and a missing one becomes a MissingPeerDependencyError naming the exact
 * `npm install …`.
 *
 * No peer is named in a literal `import()`: each is imported through `runtimeImport`, which
 * bundlers do not follow, so an app bundles `trx-rent` (for a browser, an edge worker or a
 * server) whether or not the peers are installed. A bundled app that uses a peer in a browser
 * names it itself with `providePeers`, so its own bundler includes it.
 * @module
 */
import { MissingPeerDependencyError } from '../errors/index.js';
import { runtimeImport } from '../internal/node-module.js';

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
  pg: '8.23.1',
} as const;

type PeerName = keyof typeof PEER_VERSIONS;

/** The module specifiers the library imports from its optional peers, one per entry point it uses. */
export const PEER_MODULES = [
  'viem',
  'viem/accounts',
  '@x402/core/client',
  '@x402/evm/exact/client',
  'tronweb',
  '@modelcontextprotocol/sdk/server/index.js',
  '@modelcontextprotocol/sdk/types.js',
  '@modelcontextprotocol/sdk/server/stdio.js',
  '@modelcontextprotocol/sdk/server/streamableHttp.js',
  'yaml',
  '@aws-sdk/client-kms',
  'pg',
] as const;

/** One of {@link PEER_MODULES}: a module of an optional peer the library may import. */
export type PeerModule = (typeof PEER_MODULES)[number];

const provided = new Map<string, () => Promise<unknown>>();
const cache = new Map<string, Promise<unknown>>();

/**
 * Hands the library peer modules that the app imports itself, for a bundled app (a browser, an
 * edge worker) whose bundler includes only what the app's own code names: the library imports
 * its peers by a name bundlers do not follow. Each value is a function importing the module, so
 * the app's bundler puts it in a lazy chunk and nothing loads before a feature needs it. In Node,
 * Deno and Bun nothing needs to be provided: an installed peer is found at run time.
 *
 * ```ts
 * import { providePeers } from 'trx-rent/x402';
 * providePeers({
 *   'viem/accounts': () => import('viem/accounts'),
 *   '@x402/core/client': () => import('@x402/core/client'),
 *   '@x402/evm/exact/client': () => import('@x402/evm/exact/client'),
 * });
 * ```
 */
export function providePeers(modules: Partial<Record<PeerModule, () => Promise<unknown>>>): void {
  for (const [specifier, importer] of Object.entries(modules)) {
    if (!(PEER_MODULES as readonly string[]).includes(specifier)) {
      throw new TypeError(`providePeers: "${specifier}" is not a module the library imports (one of ${PEER_MODULES.join(', ')})`);
    }
    if (typeof importer !== 'function') throw new TypeError(`providePeers: "${specifier}" needs a function importing it, e.g. () => import('${specifier}')`);
    provided.set(specifier, importer as () => Promise<unknown>);
    cache.delete(specifier);
  }
}

/** The module: the app's own importer when it provided one, else an import the runtime resolves. */
function importPeer<T>(specifier: PeerModule): Promise<T> {
  const importer = provided.get(specifier);
  return (importer ? importer() : runtimeImport(specifier)) as Promise<T>;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  const message = String((error as Error | undefined)?.message ?? '');
  // Node, Bun and Deno name a missing package; a browser names a bare specifier it cannot map
  // (Chromium, Firefox, Safari, in that order), as in a bundled app that did not provide it.
  return (
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'MODULE_NOT_FOUND' ||
    /Cannot find (module|package)|Failed to resolve module specifier|was a bare specifier|does not resolve to a valid URL/.test(message)
  );
}

/** The packages a feature needs together, each with the module that shows it is there. */
type Group = ReadonlyArray<readonly [PeerName, PeerModule]>;

/**
 * Paying x402 calls needs all three (the client, the EVM scheme, viem's signing): when one is
 * missing, every missing one is named in the same error, so one `npm install` fixes it.
 */
const PAYMENT: Group = [
  ['viem', 'viem/accounts'],
  ['@x402/core', '@x402/core/client'],
  ['@x402/evm', '@x402/evm/exact/client'],
];

/** Which of `group`'s packages cannot be imported (all of them missing is one error, one install). */
async function missingOf(packages: PeerName[], group: Group | undefined): Promise<PeerName[]> {
  if (!group) return packages;
  const results = await Promise.allSettled(group.map(([, specifier]) => importPeer(specifier)));
  const missing = group
    .filter((_, i) => {
      const r = results[i]!;
      return r.status === 'rejected' && isMissing(r.reason);
    })
    .map(([name]) => name);
  return missing.length ? missing : packages;
}

function load<T>(specifier: PeerModule, packages: PeerName[], feature: string, group?: Group): Promise<T> {
  let pending = cache.get(specifier) as Promise<T> | undefined;
  if (!pending) {
    pending = importPeer<T>(specifier).catch(async (error: unknown) => {
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

/** `viem`, imported on first call and cached. Not installed: rejects with MissingPeerDependencyError (viem). */
export const loadViem = () => load<typeof import('viem')>('viem', ['viem'], 'TIP-712/EIP-712 signing and verification');
/** `viem/accounts` (private-key accounts), imported on first call. Not installed: MissingPeerDependencyError (viem). */
export const loadViemAccounts = () =>
  load<typeof import('viem/accounts')>('viem/accounts', ['viem'], 'Paying x402 calls (signing with a private key)', PAYMENT);
/** `@x402/core/client`, imported on first call. Not installed: MissingPeerDependencyError (@x402/core, viem). */
export const loadX402Core = () => load<typeof import('@x402/core/client')>('@x402/core/client', ['@x402/core'], 'Paying x402 calls', PAYMENT);
/** `@x402/evm/exact/client` (USDC on Base), imported on first call. Not installed: MissingPeerDependencyError (@x402/evm, viem). */
export const loadX402Evm = () =>
  load<typeof import('@x402/evm/exact/client')>('@x402/evm/exact/client', ['@x402/evm'], 'Paying x402 calls in USDC on Base', PAYMENT);
/** `tronweb`, imported on first call. Not installed: MissingPeerDependencyError (tronweb). */
export const loadTronWeb = () => load<typeof import('tronweb')>('tronweb', ['tronweb'], 'Building transactions with tronweb');

const MCP = 'The MCP server (trx-rent mcp)';
/** `@modelcontextprotocol/sdk/server/index.js` (the low-level MCP server), imported on first call. Not installed: MissingPeerDependencyError (@modelcontextprotocol/sdk). */
export const loadMcpServer = () =>
  load<typeof import('@modelcontextprotocol/sdk/server/index.js')>('@modelcontextprotocol/sdk/server/index.js', ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/types.js` (request and result schemas), imported on first call. */
export const loadMcpTypes = () =>
  load<typeof import('@modelcontextprotocol/sdk/types.js')>('@modelcontextprotocol/sdk/types.js', ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/server/stdio.js`, imported on first call. */
export const loadMcpStdio = () =>
  load<typeof import('@modelcontextprotocol/sdk/server/stdio.js')>('@modelcontextprotocol/sdk/server/stdio.js', ['@modelcontextprotocol/sdk'], MCP);
/** `@modelcontextprotocol/sdk/server/streamableHttp.js` (Node's http), imported on first call. */
export const loadMcpStreamableHttp = () =>
  load<typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')>(
    '@modelcontextprotocol/sdk/server/streamableHttp.js',
    ['@modelcontextprotocol/sdk'],
    MCP,
  );
/** `@aws-sdk/client-kms` (signing with an AWS KMS key), imported on first call. Not installed: MissingPeerDependencyError (@aws-sdk/client-kms). */
export const loadAwsKms = () => load<typeof import('@aws-sdk/client-kms')>('@aws-sdk/client-kms', ['@aws-sdk/client-kms'], 'Signing with an AWS KMS key');
/** `yaml` (YAML rules files), imported on first call. Not installed: MissingPeerDependencyError (yaml). */
export const loadYaml = () => load<typeof import('yaml')>('yaml', ['yaml'], 'Reading YAML rules files');
/** `pg` (the PostgreSQL store), imported on first call. Not installed: MissingPeerDependencyError (pg). */
export const loadPg = () => load<unknown>('pg', ['pg'], 'The PostgreSQL store (--store postgres://…)');
