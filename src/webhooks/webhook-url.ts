import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not be sent (docs/design.md, SSRF): loopback, private, link-local (the cloud
 * metadata address 169.254.169.254 among them), shared, multicast and reserved ranges, IPv4 and IPv6.
 */
const REFUSED = new BlockList();
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
] as const)
  REFUSED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** BlockList judges an IPv4 address written as IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) as the IPv4 address it is. */
export function isPrivateAddress(address: string): boolean {
  return REFUSED.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Why a URL may not receive webhooks, or undefined when it may. */
export async function refusedUrl(raw: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return `names a host that does not resolve (${host})`;
  }
  const refused = addresses.find(({ address }) => isPrivateAddress(address));
  return (
    refused &&
    `names a loopback, private, link-local or metadata address (${host} is ${refused.address}); set WEBHOOK_ALLOW_PRIVATE=true for development`
  );
}
