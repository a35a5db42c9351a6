// Which IP addresses URL ingest may connect to: public unicast only, unless
// INGEST_FETCH_ALLOW_CIDRS lists the address. Refused by default: loopback, private (RFC 1918,
// unique-local), link-local (and so the 169.254.169.254 metadata service), carrier-grade NAT,
// multicast, reserved, unspecified, the IPv6 forms that embed an IPv4 address (NAT64, 6to4, Teredo,
// IPv4-compatible ::/96), and cloud metadata addresses that look public.
import ipaddr from "ipaddr.js";

/** Metadata endpoints inside ranges that are otherwise public (Azure's wire server). */
const METADATA_ADDRESSES = new Set(["168.63.129.16"]);

/**
 * ::/96 other than :: and ::1, the deprecated IPv4-compatible form (::127.0.0.1, which a URL writes
 * [::7f00:1]): ipaddr.js calls it unicast, yet it embeds an IPv4 address.
 */
function ipv4Compatible(address: string): boolean {
  // The URL parser's hex form: ipaddr.js reads a dotted "::a.b.c.d" as if it were "::ffff:a.b.c.d".
  const hex = address.includes(":")
    ? URL.parse(`http://[${address}]/`)?.hostname.slice(1, -1)
    : undefined;
  if (hex === undefined || !ipaddr.IPv6.isValid(hex)) return false;
  const parts = ipaddr.IPv6.parse(hex).parts;
  return parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && parts[7]! <= 1);
}

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

export type AddressPolicy = { check(address: string): AddressVerdict };

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseAllowList(raw: string | undefined): Cidr[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry);
      const address = ipaddr.parse(entry);
      return [address, address.kind() === "ipv4" ? 32 : 128] as Cidr;
    });
}

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** Throws on an unparsable allow-list entry, so a typo in the configuration stops the boot. */
export function createAddressPolicy(allowCidrs: string | undefined): AddressPolicy {
  const allowed = parseAllowList(allowCidrs);
  return {
    check(address) {
      const ip = normalise(address);
      if (!ip) return { allowed: false, reason: `${address} is not an IP address` };
      if (
        allowed.some(
          ([range, bits]) => range.kind() === ip.kind() && ip.match(range as never, bits),
        )
      )
        return { allowed: true };
      if (ipv4Compatible(address))
        return { allowed: false, reason: `${address} is an IPv4-compatible IPv6 address (::/96)` };
      const range = ip.range();
      if (range !== "unicast")
        return { allowed: false, reason: `${ip.toString()} is a ${range} address` };
      if (METADATA_ADDRESSES.has(ip.toString()))
        return { allowed: false, reason: `${ip.toString()} is a cloud metadata address` };
      return { allowed: true };
    },
  };
}

/** The address a URL's host names literally (IPv6 brackets removed), or null for a host name. */
export function literalAddress(hostname: string): string | null {
  const bare =
    hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
