import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may post (docs/api-rules.md#webhooks): http(s) only, and in production never a
 * private, loopback, link-local or otherwise non-public address, so a subscription cannot
 * turn the dispatcher against the operator's own network. Host names are resolved and every
 * address they resolve to is checked.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return nonPublic.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return nonPublic.check(mapped[1]!, 'ipv4');
  return nonPublic.check(address, 'ipv6');
}

/** Syntax only: an absolute http(s) URL without credentials (fetch refuses those). */
export function urlSyntaxProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (!url.hostname) return 'must name a host';
  return null;
}

/** Why the server must not post to `value`, or null when it may. */
export async function targetProblem(value: string, production: boolean): Promise<string | null> {
  const syntax = urlSyntaxProblem(value);
  if (syntax || !production) return syntax;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isNonPublicAddress(host) ? 'must not point at a private, loopback or link-local address' : null;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at a private, loopback or link-local address';
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return 'names a host that does not resolve';
  }
  if (addresses.length === 0) return 'names a host that does not resolve';
  return addresses.some((a) => isNonPublicAddress(a.address)) ? 'must not point at a private, loopback or link-local address' : null;
}
