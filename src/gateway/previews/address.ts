import ipaddr from "ipaddr.js";

/** CIDR ranges an operator lets the preview fetcher reach although they are not public (LINK_PREVIEW_ALLOW_CIDRS). */
export type AllowList = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** Parses `10.0.0.0/8, ::1/128`; throws naming the first entry that is not a CIDR range. */
export function parseAllowList(list: readonly string[]): AllowList {
  return list.map((entry) => {
    try {
      return ipaddr.parseCIDR(entry.trim());
    } catch {
      throw new Error(`"${entry}" is not a CIDR range such as 10.0.0.0/8 or fd00::/8`);
    }
  });
}

/**
 * Whether the fetcher may connect to this address: a public unicast address, or one inside the
 * operator's allow-list. An IPv4 address inside IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4
 * address it is; every other special range — private, loopback, link-local, multicast,
 * unique-local, carrier-grade NAT, documentation, 6to4, Teredo, NAT64, unspecified, broadcast,
 * reserved — is refused. Anything that does not parse as an address is refused.
 */
export function addressAllowed(address: string, allow: AllowList): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  for (const [net, bits] of allow) if (ip.kind() === net.kind() && ip.match(net, bits)) return true;
  return ip.range() === "unicast";
}

/**
 * The address a URL's host names literally (`127.0.0.1`, `[::1]`), else undefined (a name to resolve).
 * The WHATWG URL parser has already turned decimal, octal and hex IPv4 forms (`2130706433`,
 * `0177.0.0.1`, `0x7f.1`) into dotted quads.
 */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}
