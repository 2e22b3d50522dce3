/**
 * Where webhook deliveries may go (WEBHOOK_PRIVATE_ADDRESSES, docs/webhooks.md).
 * With `refuse`, no address of the operator's own networks, nor any other that is
 * not globally reachable (IANA's special-purpose registries): a URL naming one
 * is refused when the subscription is written, and every attempt resolves its
 * host name itself and connects only to the addresses it checked, so a name
 * that resolves elsewhere later (DNS rebinding) is caught when it matters.
 */
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type PrivateAddresses = 'allow' | 'refuse';

export const PRIVATE_ADDRESSES: readonly PrivateAddresses[] = ['allow', 'refuse'];

/** The last_error of an attempt refused before connecting. */
export const DESTINATION_REFUSED = 'destination address not allowed';

/**
 * The IPv4 ranges IANA's IPv4 Special-Purpose Address Registry marks not globally reachable (this network, private,
 * shared (CGNAT), loopback, link-local, IETF protocol assignments, the three documentation ranges, benchmarking,
 * reserved with the limited broadcast), and multicast.
 */
const PRIVATE_IPV4 = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const;

/** The two IPv6 groups spelling an IPv4 address: 127.0.0.1 is 7f00:1. */
function ipv4Groups(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Every range refused: one BlockList answers for both families (docs/webhooks.md lists them). */
const PRIVATE = new BlockList();
for (const [network, prefix] of PRIVATE_IPV4) {
  // BlockList matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 ranges itself.
  PRIVATE.addSubnet(network, prefix, 'ipv4');
  // The same ranges inside IPv6 addresses that carry an IPv4 one (a relay or a translator reaches that IPv4 address):
  // NAT64's well-known prefix 64:ff9b::/96 (the last 32 bits) and 6to4's 2002::/16 (bits 16 to 47).
  PRIVATE.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
  PRIVATE.addSubnet(`2002:${ipv4Groups(network)}::`, 16 + prefix, 'ipv6');
}
// The IPv6 Special-Purpose Address Registry's not globally reachable ranges, and multicast and the deprecated
// site-local. ::/96 is ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d. 2001::/23 (IETF protocol assignments)
// is refused whole, as 192.0.0.0/24 is: it holds Teredo, whose two IPv4 addresses (its server's, its client's
// inverted) no receiver has a reason to use, benchmarking, ORCHID, and a few globally reachable anycast and
// overlay blocks (PCP, TURN, AMT, AS112, ORCHIDv2, DRIP) where no webhook receiver lives either.
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['100:0:0:1::', 64], ['2001::', 23], ['2001:db8::', 32], ['3fff::', 20],
  ['5f00::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) PRIVATE.addSubnet(network, prefix, 'ipv6');

function isPrivate(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Whether `url` names a private address literally. The WHATWG parser has already
 * turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1; a name is not resolved here
 * (what it resolves to at delivery is what counts). An unparsable URL names none.
 */
export function namesPrivateAddress(url: string): boolean {
  if (!URL.canParse(url)) return false;
  return isPrivate(new URL(url).hostname.replace(/^\[(.*)\]$/, '$1'));
}

/** Refuses a connection before it is made; the attempt records DESTINATION_REFUSED. */
export class DestinationRefused extends Error {
  constructor() {
    super(DESTINATION_REFUSED);
  }
}

/**
 * A `lookup` for node:http(s) `request`: resolves every address of the name and
 * refuses them all if any is private; else the socket connects to those checked.
 * (Node connects to an IP literal without calling it: `namesPrivateAddress` covers those.)
 */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.some(({ address }) => isPrivate(address))) return callback(new DestinationRefused(), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
