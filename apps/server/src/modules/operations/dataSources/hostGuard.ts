import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Where a SQL data source may connect. A client's database usually sits on a private network, so private
 * ranges are allowed; what is never allowed are the addresses through which a configured "database host"
 * would reach the machine itself or the cloud it runs in: link-local (169.254.0.0/16 holds the AWS, GCP and
 * Azure metadata services), the Alibaba Cloud and Tencent Cloud metadata addresses, unspecified, multicast,
 * broadcast and reserved ranges. Loopback is refused too unless listed in `DATASOURCE_HOST_ALLOWLIST`: the
 * application's own database, Redis and admin ports usually listen there. The name is resolved once and the
 * driver connects to the checked address, so a DNS answer that changes between check and connect (rebinding)
 * cannot move the connection elsewhere.
 */

const NEVER_RANGES = new Set(['linkLocal', 'unspecified', 'multicast', 'broadcast', 'reserved']);
/** Cloud metadata services outside link-local (Alibaba Cloud, Tencent Cloud, AWS IPv6). */
const METADATA_ADDRESSES = ['100.100.100.200', '169.254.169.254', '169.254.170.2', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString());

export class HostRefused extends Error {}

function listed(allowlist: readonly string[], host: string, addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  for (const entry of allowlist) {
    if (entry === host.toLowerCase()) return true;
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (range.kind() === addr.kind() && addr.match([range, bits] as never)) return true;
      } else if (ipaddr.isValid(entry) && ipaddr.parse(entry).toNormalizedString() === addr.toNormalizedString()) return true;
    } catch {
      // a malformed entry allows nothing
    }
  }
  return false;
}

/** Why an address may not be used, or null when it may. */
export function refusedAddress(address: string, host: string, allowlist: readonly string[]): string | null {
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (METADATA_ADDRESSES.includes(addr.toNormalizedString()) || NEVER_RANGES.has(range)) return `不允许连接该地址（${range === 'linkLocal' ? '链路本地/云元数据地址' : '保留或特殊地址'}）`;
  if (range === 'loopback' && !listed(allowlist, host, addr)) return '不允许连接本机地址；如确需连接，请由管理员将其加入 DATASOURCE_HOST_ALLOWLIST';
  return null;
}

/** The address to connect to for `host`, after the checks above; throws HostRefused with the user's message. */
export async function resolveAllowedHost(host: string, allowlist: readonly string[]): Promise<string> {
  const name = host.trim();
  if (!name || name.length > 253 || !/^[A-Za-z0-9.\-:[\]]+$/.test(name)) throw new HostRefused('数据库地址格式不正确');
  const bare = name.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(bare)) addresses = [ipaddr.parse(bare).toString()];
  else {
    try {
      addresses = (await dns.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new HostRefused(`无法解析数据库地址：${bare}`);
    }
  }
  if (!addresses.length) throw new HostRefused(`无法解析数据库地址：${bare}`);
  // every address the name resolves to must pass, or a second A record could point at a refused one
  for (const a of addresses) {
    const why = refusedAddress(a, bare, allowlist);
    if (why) throw new HostRefused(why);
  }
  return addresses[0];
}
