import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** The only IPv6 block allocated for global unicast; the rest is reserved, or embeds another address. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why a webhook may not be sent to `address`, or undefined when it is a global unicast address of
 * another host. The ranges are ipaddr.js's names for the IANA special-purpose registries (loopback,
 * private, link-local with the cloud metadata address, CGNAT, TEST-NET, benchmarking, multicast,
 * reserved, 6to4, Teredo, NAT64...); an IPv4-mapped IPv6 address is judged as the IPv4 address it
 * is. The host's own addresses are refused whatever their range: a service listening on 0.0.0.0
 * answers on each of them, and its answer would come back through the delivery list.
 */
export function refusedAddress(
  address: string,
  hostAddresses: ReadonlySet<string> = ownAddresses(),
): string | undefined {
  // A scoped address (`fe80::1%eth0`) is link-local, and the URL parser refuses its zone.
  if (isIP(address) === 0 || address.includes('%')) return `${address}, which is not a global IP address`;
  const parsed = normalised(address);
  if (hostAddresses.has(parsed.toNormalizedString())) return `${address}, an address of this host`;
  const range = parsed.range();
  if (range !== 'unicast') return `${address}, a special-purpose address (${range})`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6))
    return `${address}, a special-purpose address (outside 2000::/3)`;
  return undefined;
}

/** Every address of this host's interfaces, read at each check: interfaces come and go. */
function ownAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .map(({ address }) => normalised(address).toNormalizedString()),
  );
}

/**
 * ipaddr.js reads an IPv4-compatible address written with dots (`::8.8.8.8`) as IPv4-mapped: the
 * URL parser writes it as Node connects to it (`::808:808`) first.
 */
function normalised(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(isIP(address) === 6 ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * A URL checked for delivery: `refused` says why it may not receive webhooks; otherwise `address`
 * is the checked address to connect to (so a second DNS answer cannot swap in another), or
 * undefined when private addresses are allowed and the connection resolves the name itself.
 */
export type CheckedUrl = { refused: string } | { refused?: undefined; address: LookupAddress | undefined };

/** Checks the URL's form and, unless private addresses are allowed, every address its host resolves to. */
export async function checkUrl(raw: string, allowPrivate: boolean): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { refused: 'must be an http or https URL' };
  if (url.username || url.password) return { refused: 'must not carry a user name or password' };
  if (allowPrivate) return { address: undefined };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { refused: `names a host that does not resolve (${host})` };
  }
  const hostAddresses = ownAddresses();
  for (const { address } of addresses) {
    const why = refusedAddress(address, hostAddresses);
    if (why)
      return {
        refused: `names an address webhooks may not reach (${host} is ${why}); only global unicast addresses of other hosts are allowed, unless WEBHOOK_ALLOW_PRIVATE=true (development)`,
      };
  }
  return { address: addresses[0] };
}
