import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.ts';

/**
 * Where the server may connect when a user names the host: SQL data sources, the SMTP server, the S3 endpoint,
 * external models and any later outbound call (findings N5, N6, N11). A name is resolved once, every address
 * it resolves to is judged, and the connection goes to a checked address (the drivers get the address, HTTP
 * agents a lookup that answers with it), so a DNS answer that changes between check and connect (rebinding)
 * cannot move the connection elsewhere.
 *
 * Every address falls in one class:
 * - forbidden, whatever the settings: cloud metadata services (169.254.169.254, 169.254.170.2, 100.100.100.200,
 *   fd00:ec2::254), unspecified (0.0.0.0/8, ::), multicast, broadcast, reserved and documentation ranges;
 * - link-local (169.254/16, fe80::/10): only where a purpose allows it for listed hosts (external models);
 * - loopback (127/8, ::1): only when the host or address is on the purpose's allow-list;
 * - private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): per purpose, allowed or only when listed;
 * - public.
 * IPv6 forms that carry an IPv4 address (v4-mapped ::ffff:0:0/96, SIIT ::ffff:0:0:0/96, v4-compatible ::/96,
 * NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32) are judged by that IPv4 address:
 * behind a NAT64 gateway or a 6to4/Teredo relay they reach it.
 */

export interface OutboundPolicy {
  /** The setting an administrator extends, named in the refusal (e.g. `SMTP_HOST_ALLOWLIST`). */
  setting: string;
  /** Host names (`*.example.com` allowed), addresses or CIDR ranges allowed although loopback (or private, below). */
  allowlist: readonly string[];
  /** Private ranges pass without a listing (data sources and SMTP: a client's database or mail relay on the LAN). */
  privateAllowed: boolean;
  /** A listed host may also be link-local (external models on an office LAN); metadata addresses never. */
  linkLocalWhenListed?: boolean;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

type AddressClass = 'public' | 'private' | 'loopback' | 'linkLocal' | 'forbidden';
/** Worse classes win when one address carries two IPv4 addresses (Teredo: server and client). */
const SEVERITY: Record<AddressClass, number> = { public: 0, private: 1, loopback: 2, linkLocal: 3, forbidden: 4 };

/** Cloud metadata services: AWS, GCP, Azure, Oracle (169.254.169.254), AWS ECS (169.254.170.2), Alibaba Cloud, AWS IPv6. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString()));

function classifyIpv4(a: ipaddr.IPv4): AddressClass {
  if (METADATA_ADDRESSES.has(a.toNormalizedString())) return 'forbidden';
  switch (a.range()) {
    case 'unicast':
      return 'public';
    case 'private':
    case 'carrierGradeNat':
      return 'private';
    case 'loopback':
      return 'loopback';
    case 'linkLocal':
      return 'linkLocal';
    default:
      // unspecified (0/8), broadcast, multicast, reserved and test ranges, AS112, AMT
      return 'forbidden';
  }
}

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, [] when it carries none, null when it is a translation prefix
 * whose layout cannot be told (the local-use NAT64 prefix with bits between the prefix and the last 32 set).
 */
export function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = a.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const last32 = () => [ipv4Of(p[6], p[7])];
  if (zero(0, 5) && p[5] === 0xffff) return last32(); // ::ffff:a.b.c.d, v4-mapped
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return last32(); // ::ffff:0:a.b.c.d, SIIT (RFC 6145)
  if (zero(0, 6)) return last32(); // ::a.b.c.d, v4-compatible (:: and ::1 are judged before)
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return last32(); // 64:ff9b::/96, NAT64 well-known prefix
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return zero(3, 6) ? last32() : null; // 64:ff9b:1::/48, local-use NAT64
  if (p[0] === 0x2002) return [ipv4Of(p[1], p[2])]; // 6to4: 2002:AABB:CCDD::
  // Teredo: server IPv4 in bits 32-63, client IPv4 in the last 32 bits, inverted
  if (p[0] === 0x2001 && p[1] === 0) return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  return [];
}

function classifyIpv6(a: ipaddr.IPv6): { cls: AddressClass; carried: ipaddr.IPv4[] } {
  if (METADATA_ADDRESSES.has(a.toNormalizedString())) return { cls: 'forbidden', carried: [] };
  const range = a.range();
  if (range === 'unspecified') return { cls: 'forbidden', carried: [] };
  if (range === 'loopback') return { cls: 'loopback', carried: [] };
  const carried = embeddedIpv4(a);
  if (carried === null) return { cls: 'forbidden', carried: [] };
  if (carried.length) {
    const cls = carried.map(classifyIpv4).reduce((worst, c) => (SEVERITY[c] > SEVERITY[worst] ? c : worst), 'public' as AddressClass);
    return { cls, carried };
  }
  switch (range) {
    case 'unicast':
      return { cls: 'public', carried };
    case 'uniqueLocal':
      return { cls: 'private', carried };
    case 'linkLocal':
      return { cls: 'linkLocal', carried };
    default:
      // multicast, discard, benchmarking, documentation, ORCHID, site-local, segment routing and other reserved ranges
      return { cls: 'forbidden', carried };
  }
}

/** Is `host` (the name as given) or one of `addresses` on the list? Entries: names, `*.suffix`, addresses, CIDR ranges. */
function listed(allowlist: readonly string[], host: string, addresses: (ipaddr.IPv4 | ipaddr.IPv6)[]): boolean {
  const name = host.toLowerCase();
  for (const raw of allowlist) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === name) return true;
    if (entry.startsWith('*.') && name.endsWith(entry.slice(1)) && name.length > entry.length - 1) return true;
    try {
      if (entry.includes('/')) {
        const cidr = ipaddr.parseCIDR(entry);
        if (addresses.some((a) => a.kind() === cidr[0].kind() && a.match(cidr))) return true;
      } else if (ipaddr.isValid(entry)) {
        const wanted = ipaddr.parse(entry).toNormalizedString();
        if (addresses.some((a) => a.toNormalizedString() === wanted)) return true;
      }
    } catch {
      // a malformed entry allows nothing
    }
  }
  return false;
}

const shown = (host: string) => host.slice(0, 100);

/** Why the server may not connect to `address` (which `host` resolved to), as the user's message; null when it may. */
export function refusalOf(address: string, host: string, policy: OutboundPolicy): AppError | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return new AppError('OUTBOUND_HOST_INVALID', { host: shown(host) });
  }
  const { cls, carried } = parsed.kind() === 'ipv4' ? { cls: classifyIpv4(parsed as ipaddr.IPv4), carried: [] } : classifyIpv6(parsed as ipaddr.IPv6);
  const params = { host: shown(host), address: parsed.toString(), setting: policy.setting };
  if (cls === 'public') return null;
  if (cls === 'forbidden') return new AppError('OUTBOUND_ADDRESS_FORBIDDEN', params);
  const isListed = listed(policy.allowlist, host, [parsed, ...carried]);
  if (cls === 'linkLocal') return isListed && policy.linkLocalWhenListed ? null : new AppError('OUTBOUND_ADDRESS_FORBIDDEN', params);
  if (cls === 'loopback') return isListed ? null : new AppError('OUTBOUND_LOOPBACK_FORBIDDEN', params);
  return policy.privateAllowed || isListed ? null : new AppError('OUTBOUND_PRIVATE_FORBIDDEN', params);
}

/** A host as a user may type it: a name or an address, IPv6 in brackets or not; no scheme, port, path or spaces. */
const HOST_SHAPE = /^[A-Za-z0-9.\-:[\]]+$/;

/**
 * The addresses to connect to for `host`, every one checked (a second A record could otherwise point at a refused
 * one); throws the user's message (an AppError) when the host is malformed, does not resolve or is refused.
 * Numeric spellings (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`) are read as the resolver would read them.
 */
export async function resolveOutbound(host: string, policy: OutboundPolicy): Promise<CheckedAddress[]> {
  const name = host.trim();
  if (!name || name.length > 253 || !HOST_SHAPE.test(name)) throw new AppError('OUTBOUND_HOST_INVALID', { host: shown(name) });
  const bare = name.replace(/^\[|\]$/g, '');
  let found: CheckedAddress[];
  if (ipaddr.isValid(bare)) {
    const parsed = ipaddr.parse(bare);
    found = [{ address: parsed.toString(), family: parsed.kind() === 'ipv4' ? 4 : 6 }];
  } else {
    try {
      found = (await dns.promises.lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch {
      found = [];
    }
  }
  if (!found.length) throw new AppError('OUTBOUND_HOST_UNRESOLVED', { host: shown(bare) });
  for (const a of found) {
    const refusal = refusalOf(a.address, bare, policy);
    if (refusal) throw refusal;
  }
  return found;
}

/**
 * A `lookup` for net/http/https agents: each new connection resolves the name through `resolveOutbound`, so it
 * goes only to checked addresses (TLS still verifies the certificate against the name). Node skips the lookup
 * for an address literal: check such a host with `resolveOutbound` before the first request.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveOutbound(hostname, policy).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (!wanted.length) {
          const err = Object.assign(new Error(`no IPv${options.family} address`), { code: 'ENOTFOUND' }) as NodeJS.ErrnoException;
          return options.all ? callback(err, []) : callback(err, '', 0);
        }
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => (options.all ? callback(err, []) : callback(err, '', 0)),
    );
  };
}

/**
 * Numeric host spellings other than the four dotted decimals (`2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`):
 * resolvers read them as IPv4 addresses, people do not. Forms that take only host names refuse them as malformed.
 */
export function isObscureIpv4(host: string): boolean {
  const h = host.trim();
  return ipaddr.IPv4.isValid(h) && !ipaddr.IPv4.isValidFourPartDecimal(h);
}

/**
 * Each purpose's rule, in one place (README "Configuration" documents them):
 * - data sources: a client's database on the LAN is the usual case, so private ranges pass; loopback only listed;
 * - SMTP: a company relay on the LAN is common, so private ranges pass; loopback (a relay on this host) only listed;
 * - S3 endpoint: cloud providers are public; an on-premises MinIO, private or loopback, only listed;
 * - external models: only public addresses, unless the host is listed (then private, loopback and link-local).
 */
export const OUTBOUND_POLICIES = {
  dataSource: (allowlist: readonly string[]): OutboundPolicy => ({ setting: 'DATASOURCE_HOST_ALLOWLIST', allowlist, privateAllowed: true }),
  smtp: (allowlist: readonly string[]): OutboundPolicy => ({ setting: 'SMTP_HOST_ALLOWLIST', allowlist, privateAllowed: true }),
  storage: (allowlist: readonly string[]): OutboundPolicy => ({ setting: 'STORAGE_ENDPOINT_ALLOWLIST', allowlist, privateAllowed: false }),
  model: (privateHosts: readonly string[]): OutboundPolicy => ({ setting: 'MODEL_SITE_PRIVATE_HOSTS', allowlist: privateHosts, privateAllowed: false, linkLocalWhenListed: true }),
};
