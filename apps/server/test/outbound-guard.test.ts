import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../src/core/errors.ts';
import { guardedLookup, isObscureIpv4, OUTBOUND_POLICIES, type OutboundPolicy, refusalOf, resolveOutbound } from '../src/core/net/outboundGuard.ts';

/**
 * The outbound-address guard (core/net/outboundGuard.ts) by itself: every range it refuses, the loopback spellings
 * the data-source guard was attacked with, and the IPv6 forms that carry an IPv4 address (finding N11). Only the
 * lookup test opens a connection, to a listener on 127.0.0.1; every other address is judged, never contacted.
 */

const { dataSource, smtp, storage, model } = OUTBOUND_POLICIES;
const PURPOSES: [string, (list: string[]) => OutboundPolicy][] = [
  ['data source', dataSource],
  ['smtp', smtp],
  ['storage', storage],
  ['model', model],
];
const codeOf = (address: string, policy: OutboundPolicy, host = 'target.example') => refusalOf(address, host, policy)?.code ?? null;
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => e.code,
  );

describe('outbound guard: address classes', () => {
  it('never allows metadata, unspecified, multicast, broadcast, reserved or documentation addresses, listed or not', () => {
    const never = [
      '169.254.169.254',
      '169.254.170.2',
      '100.100.100.200',
      'fd00:ec2::254',
      '0.0.0.0',
      '0.1.2.3',
      '::',
      '224.0.0.1',
      '239.255.255.250',
      'ff02::1',
      '255.255.255.255',
      '240.0.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '2001:db8::1',
      '100::1',
      'fec0::1',
    ];
    for (const [purpose, policy] of PURPOSES) {
      for (const a of never) {
        expect(codeOf(a, policy([])), `${purpose} ${a}`).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
        // an allow-list entry covering it changes nothing
        expect(codeOf(a, policy([a, '0.0.0.0/0', '::/0', 'target.example'])), `${purpose} ${a} listed`).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
      }
    }
  });

  it('allows link-local only to listed external-model hosts', () => {
    for (const a of ['169.254.1.1', 'fe80::1']) {
      for (const policy of [dataSource, smtp, storage]) expect(codeOf(a, policy([a, 'target.example']))).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
      expect(codeOf(a, model([]))).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
      expect(codeOf(a, model(['target.example']))).toBeNull();
    }
  });

  it('allows loopback only when the host, the address or its range is listed', () => {
    for (const [purpose, policy] of PURPOSES) {
      for (const a of ['127.0.0.1', '127.8.9.10', '::1']) {
        const refused = codeOf(a, policy([]));
        expect(refused, `${purpose} ${a}`).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
        expect(refusalOf(a, 'target.example', policy([]))?.message).toContain(policy([]).setting);
        expect(codeOf(a, policy(['target.example'])), `${purpose} ${a} by name`).toBeNull();
        expect(codeOf(a, policy(['*.example'])), `${purpose} ${a} by suffix`).toBeNull();
        expect(codeOf(a, policy([a])), `${purpose} ${a} by address`).toBeNull();
        expect(codeOf(a, policy(['127.0.0.0/8', '::1/128'])), `${purpose} ${a} by range`).toBeNull();
        expect(codeOf(a, policy(['other.example', '10.0.0.0/8', 'not an entry/99'])), `${purpose} ${a} other entries`).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
      }
    }
  });

  it('allows private ranges to data sources and SMTP, to S3 endpoints and models only when listed', () => {
    const privateAddresses = ['10.0.0.1', '172.16.5.4', '172.31.255.254', '192.168.1.10', '100.64.0.1', 'fc00::1', 'fd12:3456::1'];
    for (const a of privateAddresses) {
      expect(codeOf(a, dataSource([])), a).toBeNull();
      expect(codeOf(a, smtp([])), a).toBeNull();
      expect(codeOf(a, storage([])), a).toBe('OUTBOUND_PRIVATE_FORBIDDEN');
      expect(codeOf(a, model([])), a).toBe('OUTBOUND_PRIVATE_FORBIDDEN');
      expect(codeOf(a, storage(['target.example'])), a).toBeNull();
      expect(codeOf(a, storage(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'])), a).toBeNull();
      expect(codeOf(a, model(['target.example'])), a).toBeNull();
    }
    expect(refusalOf('10.0.0.1', 'minio.lan', storage([]))?.message).toBe('minio.lan 解析到内网地址 10.0.0.1；如确需连接，请由管理员将其加入 STORAGE_ENDPOINT_ALLOWLIST');
  });

  it('allows public addresses everywhere', () => {
    for (const [purpose, policy] of PURPOSES) {
      for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1']) {
        expect(codeOf(a, policy([])), `${purpose} ${a}`).toBeNull();
      }
    }
  });
});

describe('outbound guard: IPv6 forms that carry an IPv4 address (N11)', () => {
  // 169.254.169.254 = a9fe:a9fe, 127.0.0.1 = 7f00:1; Teredo stores the client inverted (XOR 0xffffffff)
  const carrying = (hi: string, lo: string, inverted: string) => [
    `::ffff:${hi}:${lo}`, // v4-mapped
    `::ffff:0:${hi}:${lo}`, // SIIT
    `::${hi}:${lo}`, // v4-compatible
    `64:ff9b::${hi}:${lo}`, // NAT64
    `64:ff9b:1::${hi}:${lo}`, // local-use NAT64
    `2002:${hi}:${lo}::1`, // 6to4
    `2001:0:4136:e378:8000:63bf:${inverted}`, // Teredo, server 65.54.227.120
  ];

  it('judges the metadata address inside every form', () => {
    const forms = [...carrying('a9fe', 'a9fe', '5601:5601'), '::ffff:169.254.169.254', '64:ff9b::169.254.169.254', '[::ffff:169.254.169.254]'];
    for (const [purpose, policy] of PURPOSES) {
      for (const a of forms) expect(codeOf(a.replace(/^\[|\]$/g, ''), policy(['target.example'])), `${purpose} ${a}`).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
    }
  });

  it('judges the loopback address inside every form', async () => {
    const forms = [...carrying('7f00', '1', '80ff:fffe'), '::ffff:127.0.0.1', '0:0:0:0:0:ffff:127.0.0.1', '64:ff9b::127.0.0.1'];
    for (const a of forms) {
      expect(codeOf(a, dataSource([])), a).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
      expect(await rejection(resolveOutbound(`[${a}]`, smtp([]))), a).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
      // listing 127.0.0.1 allows what carries it
      expect(codeOf(a, dataSource(['127.0.0.1'])), a).toBeNull();
    }
  });

  it('judges a Teredo address by its server too, and refuses a local-use NAT64 layout it cannot read', () => {
    // server 10.0.0.1 (private), client 8.8.8.8: private for an S3 endpoint
    expect(codeOf('2001:0:a00:1::f7f7:f7f7', storage([]))).toBe('OUTBOUND_PRIVATE_FORBIDDEN');
    expect(codeOf('2001:0:4136:e378:8000:63bf:f7f7:f7f7', storage([]))).toBeNull();
    expect(codeOf('64:ff9b:1:1::808:808', dataSource([]))).toBe('OUTBOUND_ADDRESS_FORBIDDEN');
    expect(codeOf('64:ff9b:1::808:808', dataSource([]))).toBeNull();
  });
});

describe('outbound guard: names and spellings', () => {
  it('refuses the loopback and unspecified spellings before any connection', async () => {
    const spellings = [
      '127.0.0.1',
      'localhost',
      'LOCALHOST',
      '[::1]',
      '::1',
      '0:0:0:0:0:0:0:1',
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '127.000.000.001',
      '127.1',
      '127.0.0.2',
      '::ffff:127.0.0.1',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '0',
      '0.0.0.0',
      '[::]',
      '127.0.0.1\t',
      ' localhost ',
    ];
    for (const [purpose, policy] of PURPOSES) {
      for (const host of spellings) {
        expect(['OUTBOUND_LOOPBACK_FORBIDDEN', 'OUTBOUND_ADDRESS_FORBIDDEN'], `${purpose} ${JSON.stringify(host)}`).toContain(await rejection(resolveOutbound(host, policy([]))));
      }
    }
    // a trailing dot is not a way round: it does not resolve, or resolves to a refused address
    for (const host of ['localhost.', '127.0.0.1.']) expect(await rejection(resolveOutbound(host, dataSource([])))).toMatch(/^OUTBOUND_/);
  });

  it('refuses malformed hosts and names that do not resolve', async () => {
    for (const host of ['', ' ', 'http://x', 'a b', 'x;y', 'host:80/path', 'user@host', 'a'.repeat(254), '127.0.0.1%lo']) {
      expect(await rejection(resolveOutbound(host, dataSource([]))), JSON.stringify(host)).toBe('OUTBOUND_HOST_INVALID');
    }
    expect(await rejection(resolveOutbound('no-such-host.invalid', dataSource([])))).toBe('OUTBOUND_HOST_UNRESOLVED');
  });

  it('allows an allow-listed loopback name and answers its checked addresses', async () => {
    const found = await resolveOutbound('localhost', smtp(['localhost']));
    expect(found.length).toBeGreaterThan(0);
    for (const a of found) expect(['127.0.0.1', '::1']).toContain(a.address);
    expect(await resolveOutbound('2130706433', dataSource(['127.0.0.1']))).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('tells the numeric spellings forms of host names refuse', () => {
    for (const h of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1', '0', '0x7f.1', '127.000.000.001']) expect(isObscureIpv4(h), h).toBe(true);
    for (const h of ['127.0.0.1', '8.8.8.8', 'smtp.qq.com', 'mail-1.example.com', '::1']) expect(isObscureIpv4(h), h).toBe(false);
  });
});

describe('outbound guard: the lookup given to HTTP agents', () => {
  let server: http.Server;
  let port = 0;
  let received = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      received++;
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const get = (policy: OutboundPolicy) =>
    new Promise<string>((resolve, reject) => {
      const req = http.get({ host: 'localhost', port, family: 4, lookup: guardedLookup(policy), agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      });
      req.on('error', reject);
    });

  it('refuses a name that resolves to loopback before connecting, and connects to the checked address when listed', async () => {
    expect(await rejection(get(storage([])))).toBe('OUTBOUND_LOOPBACK_FORBIDDEN');
    expect(received).toBe(0);
    expect(await get(storage(['localhost']))).toBe('200');
    expect(received).toBe(1);
  });
});
