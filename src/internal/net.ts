/**
 * The one loopback test, for every place that decides "this stays on this machine": sending a
 * credential over plain http, delivering a mock webhook, binding the mock or the MCP server.
 * @module
 */

/**
 * True for a loopback host: `localhost` and any `*.localhost` name (RFC 6761 reserves them for
 * loopback), 127.0.0.0/8, `::1`, and IPv4-mapped 127.x in both the dotted form and the hex form
 * the WHATWG URL parser produces (`[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`). Brackets
 * and a trailing dot are ignored; case does not matter. Anything else, including `0.0.0.0`
 * and names that merely resolve to 127.0.0.1, is not loopback.
 *
 * This is the widest of the four copies it replaces (the URL check's); the narrower ones missed
 * the IPv4-mapped forms (so `http://[::ffff:127.0.0.1]` was refused a credential though it is
 * loopback) or `*.localhost`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::1' ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)
  );
}
