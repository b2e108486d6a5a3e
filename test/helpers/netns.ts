/**
 * Separate "hosts" on this machine for the tests that need them: one network namespace per host
 * (`ip netns`), each joined to this one by its own veth pair (a /30 of 10.213.N.0/24, where N is
 * picked free), its default route through its pair, its loopback its own (this machine's
 * 127.0.0.1 is out of its reach). A server bound to {@link NetHosts.serverAddress} (the first
 * pair's end on this side) is reached from every namespace over its veth pair, as from another
 * host; nothing is routed further (no forwarding, no NAT): nothing leaves the machine. Each
 * command runs in its namespace with a hostname of its own (`unshare --uts`). Needs root (or
 * CAP_NET_ADMIN and CAP_SYS_ADMIN): {@link netnsUnavailable} says why not, for a skip.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** One host: its namespace, its address, its hostname. */
export interface NetHost {
  readonly ns: string;
  readonly address: string;
  readonly hostname: string;
  /** `argv` run in the namespace under the hostname: what to spawn (`ip netns exec … unshare --uts …`). */
  command(argv: readonly string[]): { cmd: string; args: string[] };
}

/** The hosts made by {@link makeNetHosts}. */
export interface NetHosts {
  /** Where a server listens for every host (this side of the first veth pair). */
  readonly serverAddress: string;
  /** The network of every pair, for a server's allow list. */
  readonly cidr: string;
  readonly hosts: readonly NetHost[];
  /** Delete the namespaces (and with them the veth pairs). */
  close(): void;
}

function ip(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8', timeout: 10_000 });
  return { ok: r.status === 0, out: `${r.stderr ?? ''}${r.stdout ?? ''}`.trim() || String(r.error ?? r.signal ?? r.status) };
}

function must(args: string[]): string {
  const r = ip(args);
  if (!r.ok) throw new Error(`ip ${args.join(' ')}: ${r.out}`);
  return r.out;
}

/** Why separate namespaces over veth cannot be made here, or undefined when they can (made and removed once to see). */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  const tag = randomBytes(3).toString('hex');
  const ns = `trx-probe-${tag}`;
  const add = ip(['netns', 'add', ns]);
  if (!add.ok) return `\`ip netns add\` failed (${add.out}); it needs root or CAP_NET_ADMIN and CAP_SYS_ADMIN`;
  try {
    const veth = ip(['link', 'add', `tpr${tag}h`, 'type', 'veth', 'peer', 'name', `tpr${tag}n`, 'netns', ns]);
    if (!veth.ok) return `a veth pair cannot be made (${veth.out})`;
    const uts = spawnSync('ip', ['netns', 'exec', ns, 'unshare', '--uts', 'true'], { encoding: 'utf8', timeout: 10_000 });
    if (uts.status !== 0) return `\`unshare --uts\` failed in a namespace (${(uts.stderr || String(uts.status)).trim()})`;
    return undefined;
  } finally {
    ip(['link', 'del', `tpr${tag}h`]);
    ip(['netns', 'del', ns]);
  }
}

/** `n` hosts (at most 60), each a namespace over its own veth pair (see the module comment). */
export function makeNetHosts(n: number, names: readonly string[] = []): NetHosts {
  if (!(n >= 1 && n <= 60)) throw new RangeError('1 to 60 hosts');
  const taken = must(['-o', 'addr']);
  const routes = must(['route']);
  // A /24 of 10.213.0.0/16 that no address or route here uses yet.
  let net = -1;
  for (let i = 0, start = process.pid % 256; i < 256; i++) {
    const candidate = (start + i) % 256;
    if (!taken.includes(`10.213.${candidate}.`) && !routes.includes(`10.213.${candidate}.`)) {
      net = candidate;
      break;
    }
  }
  if (net < 0) throw new Error('no free /24 in 10.213.0.0/16');
  const tag = randomBytes(3).toString('hex');
  const made: string[] = [];
  const close = () => {
    for (const ns of made.splice(0)) ip(['netns', 'del', ns]);
    process.removeListener('exit', close);
  };
  process.once('exit', close);
  const hosts: NetHost[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const ns = `trx-${tag}-${i}`;
      const here = `10.213.${net}.${4 * i + 1}`;
      const there = `10.213.${net}.${4 * i + 2}`;
      const [near, far] = [`tv${tag}${i}h`, `tv${tag}${i}n`];
      must(['netns', 'add', ns]);
      made.push(ns);
      must(['link', 'add', near, 'type', 'veth', 'peer', 'name', far, 'netns', ns]);
      must(['addr', 'add', `${here}/30`, 'dev', near]);
      must(['link', 'set', near, 'up']);
      must(['-n', ns, 'addr', 'add', `${there}/30`, 'dev', far]);
      must(['-n', ns, 'link', 'set', far, 'up']);
      must(['-n', ns, 'link', 'set', 'lo', 'up']);
      must(['-n', ns, 'route', 'add', 'default', 'via', here]);
      const hostname = names[i] ?? `trx-host-${i}`;
      hosts.push({
        ns,
        address: there,
        hostname,
        command: (argv) => ({ cmd: 'ip', args: ['netns', 'exec', ns, 'unshare', '--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', hostname, ...argv] }),
      });
    }
  } catch (error) {
    close();
    throw error;
  }
  return { serverAddress: `10.213.${net}.1`, cidr: `10.213.${net}.0/24`, hosts, close };
}
