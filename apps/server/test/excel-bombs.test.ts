import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { companyResource } from '@app/shared/resources/company';
import { payslipResource } from '@app/shared/resources/payslip';
import { staffResource } from '@app/shared/resources/staff';
import { importFields } from '../src/core/excel/columns.ts';
import { openWorkbook } from '../src/core/excel/readWorkbook.ts';
import { adminApp, bearer, TEST_DB } from './helpers.ts';
import JSZip from 'jszip';
import { createCompany, idCard, multipart, uniq, workbook } from './dispatch-fixtures.ts';

/**
 * Decompression bombs on every import route (findings S1, S5): a 1 MB upload that would inflate to a
 * gigabyte is a 400 at once, memory stays flat, and the server keeps answering other requests meanwhile.
 * The bombs are built here without ever holding their inflated content: independently deflated pieces
 * (each ended by a full flush) are concatenated, so a GiB of one byte costs one 1 MiB block deflated once.
 * Also (S9): workbooks whose SpreadsheetML carries a namespace prefix import like any other.
 */

const session = adminApp();

const MiB = 1024 * 1024;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** One part of a hand-written ZIP: the bytes as stored, the method, and what the directory declares. */
interface Part {
  name: string;
  data: Buffer;
  method: 0 | 8;
  crc: number;
  size: number;
}

function deflated(name: string, text: string | Buffer): Part {
  const raw = Buffer.from(text);
  return { name, data: zlib.deflateRawSync(raw), method: 8, crc: zlib.crc32(raw), size: raw.length };
}

/**
 * `prefix`, then `mib` MiB of `fill` (a byte or a pattern repeated), then `suffix`, deflated piecewise; the
 * true size and CRC are declared. `mib` may depend on the deflated size of the prefix.
 */
function bombPart(name: string, prefix: string, fill: number | string, mib: number | ((prefixDeflated: number) => number), suffix: string): Part {
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH };
  const block = Buffer.alloc(MiB, fill);
  const deflatedBlock = zlib.deflateRawSync(block, flush);
  const pieces = [zlib.deflateRawSync(Buffer.from(prefix), flush)];
  if (typeof mib === 'function') mib = mib(pieces[0].length);
  let crc = zlib.crc32(prefix);
  for (let i = 0; i < mib; i++) {
    pieces.push(deflatedBlock);
    crc = zlib.crc32(block, crc);
  }
  pieces.push(zlib.deflateRawSync(Buffer.from(suffix)));
  crc = zlib.crc32(suffix, crc);
  return { name, data: Buffer.concat(pieces), method: 8, crc, size: Buffer.byteLength(prefix) + mib * MiB + Buffer.byteLength(suffix) };
}

/**
 * A ZIP archive of `parts`; `extra` central-directory entries may point at the local header of an earlier
 * part (overlapping entries) with sizes of their own.
 */
function zipOf(parts: Part[], extra: { name: string; like: string; size: number }[] = []): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets = new Map<string, number>();
  let offset = 0;
  const centralEntry = (name: Buffer, p: Pick<Part, 'method' | 'crc' | 'size'>, compressed: number, at: number) => {
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x0800, 8);
    c.writeUInt16LE(p.method, 10);
    c.writeUInt32LE(p.crc >>> 0, 16);
    c.writeUInt32LE(compressed, 20);
    c.writeUInt32LE(p.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(at, 42);
    central.push(c, name);
  };
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6);
    h.writeUInt16LE(p.method, 8);
    h.writeUInt32LE(p.crc >>> 0, 14);
    h.writeUInt32LE(p.data.length, 18);
    h.writeUInt32LE(p.size, 22);
    h.writeUInt16LE(name.length, 26);
    chunks.push(h, name, p.data);
    offsets.set(p.name, offset);
    centralEntry(name, p, p.data.length, offset);
    offset += h.length + name.length + p.data.length;
  }
  for (const x of extra) {
    const like = parts.find((p) => p.name === x.like)!;
    centralEntry(Buffer.from(x.name), { ...like, size: x.size }, like.data.length, offsets.get(x.like)!);
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length + extra.length, 8);
  end.writeUInt16LE(parts.length + extra.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, dir, end]);
}

/** The small parts of a one-sheet workbook whose shared strings and sheet are `sst` and `sheet`. */
function workbookWith(sheet: Part, sst?: Part, more: Part[] = []): Part[] {
  return [
    deflated('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    deflated(
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    deflated(
      'xl/_rels/workbook.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ),
    ...(sst ? [sst] : []),
    sheet,
    ...more,
  ];
}

const SMALL_SHEET = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row></sheetData></worksheet>`;
const SHEET_HEAD = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`;
const SHEET_TAIL = '</t></is></c></row></sheetData></worksheet>';

/** Declare `size` (and a CRC that does not match) instead of the truth: the inflating side must stop at the declared size. */
const lying = (p: Part, size = 4096): Part => ({ ...p, size, crc: 0x12345678 });


interface Bomb {
  name: string;
  file: Buffer;
}
let bombs: Bomb[] = [];

beforeAll(() => {
  const sstBomb = bombPart('xl/sharedStrings.xml', `<sst xmlns="${MAIN}"><si><t>`, 0x61, 1024, '</t></si></sst>');
  const sheetBomb = bombPart('xl/worksheets/sheet1.xml', SHEET_HEAD, 0x61, 1024, SHEET_TAIL);
  const smallSheet = deflated('xl/worksheets/sheet1.xml', SMALL_SHEET);
  // A ZIP of a ZIP (42.zip style): the sheet part is itself an archive whose one entry is the GiB bomb.
  const inner = zipOf([sheetBomb]);
  const nested = deflated('xl/worksheets/sheet1.xml', inner);
  // Overlapping entries (one compressed stream of 3 MiB named ten times, each declared as 250 MiB: within the
  // limits for one entry and its compression ratio) whose declared sizes add up to 2.5 GB.
  const shared = deflated('xl/media/blob.bin', crypto.randomBytes(3 * MiB));
  const overlapping = Array.from({ length: 10 }, (_v, i) => ({ name: `xl/media/copy${i}.bin`, like: 'xl/media/blob.bin', size: 250 * MiB }));
  bombs = [
    { name: 'shared strings, 1 GiB declared', file: zipOf(workbookWith(smallSheet, sstBomb)) },
    { name: 'shared strings, 4 KB declared (inflates to 1 GiB)', file: zipOf(workbookWith(smallSheet, lying(sstBomb))) },
    { name: 'worksheet, 1 GiB declared', file: zipOf(workbookWith(sheetBomb)) },
    { name: 'worksheet, 4 KB declared (inflates to 1 GiB)', file: zipOf(workbookWith(lying(sheetBomb))) },
    { name: 'nested: a ZIP bomb inside the sheet part', file: zipOf(workbookWith(nested)) },
    { name: 'nested: a ZIP bomb inside the sheet part, size understated', file: zipOf(workbookWith(lying(nested, 1024))) },
    { name: 'overlapping entries, 2.5 GB declared in total', file: zipOf(workbookWith(smallSheet, undefined, [shared]), overlapping) },
  ];
});

/**
 * A bomb the archive's limits let through: `incompressible` MiB of random text first, so that the whole stays
 * under the 100:1 ratio, then as many MiB of 'a' as the ratio allows (about 90 per compressed MiB).
 */
function underLimits(name: string, prefix: string, noise: string, fill: number | string, suffix: string): Part {
  return bombPart(name, prefix + noise, fill, (deflatedPrefix) => Math.floor((deflatedPrefix * 90) / MiB), suffix);
}

const base64Noise = (mib: number) => crypto.randomBytes(mib * MiB).toString('base64');
const digits = (n: number) => Array.from(crypto.randomBytes(n), (b) => b % 10).join('');
/** Cells of `size` characters of noise each, `total` characters in all. */
const noiseCells = (total: number, size: number) => {
  const noise = base64Noise(Math.ceil(total / MiB));
  let xml = '';
  for (let i = 0; i < total; i += size) xml += `<c t="inlineStr"><is><t>${noise.slice(i, i + size)}</t></is></c>`;
  return xml;
};

const ROUTES = [
  { route: 'accountsCompany', label: 'companies', header: () => importFields(companyResource).map((f) => f.label) },
  { route: 'accountsStaff', label: 'staff', header: () => importFields(staffResource).map((f) => f.label) },
  { route: 'acPayslip', label: 'payslips', header: () => importFields(payslipResource).map((f) => f.label) },
];

/** Upload `file` to an import route while a plain GET is sent every 20 ms; RSS is sampled throughout. */
async function uploadUnderWatch(route: string, file: Buffer, name: string) {
  const mp = multipart(file, 'bomb.xlsx');
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
  const getTimes: number[] = [];
  let uploading = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const upload = session.app
    .inject({ method: 'POST', url: `/api/import/${route}`, headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload })
    .finally(() => (uploading = false));
  const pinger = (async () => {
    while (uploading) {
      const g0 = performance.now();
      const res = await session.app.inject({ method: 'GET', url: '/auth/publicKey' });
      getTimes.push(performance.now() - g0);
      expect(res.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const res = await upload;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await pinger;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  const r = { res, ms, cpuMs, growthMb: (rssPeak - rssBefore) / MiB, slowestGetMs: Math.max(0, ...getTimes), gets: getTimes.length };
  console.log(`${route} / ${name}: ${res.statusCode} ${res.json().message} in ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms), RSS +${r.growthMb.toFixed(1)} MB, ${r.gets} GETs, slowest ${r.slowestGetMs.toFixed(0)} ms`);
  return r;
}

/**
 * What the defect looked like (S1): GBs of RSS and the server frozen for 4-6 s. The guards below catch that
 * with room for a loaded 2-core CI machine (the issue's "well under a second" is measured by
 * `bench/excel-reader.ts`, which prints the figures; a timed unit test flakes): a 400, memory growth under
 * 50 MB, at most 2 s of CPU for the refusal, and no ping left waiting 1.5 s or more.
 */
function expectRefused(r: Awaited<ReturnType<typeof uploadUnderWatch>>, name: string, message: RegExp) {
  expect(r.res.statusCode, `${name}: ${r.res.body}`).toBe(400);
  expect(r.res.json().message, name).toMatch(message);
  expect(r.growthMb, name).toBeLessThan(50);
  expect(r.cpuMs, name).toBeLessThan(2000);
  expect(r.ms, name).toBeLessThan(10_000);
  expect(r.slowestGetMs, name).toBeLessThan(1500);
}

// The bombs are refused while reading the file, before any database work: the SQLite run covers them, the
// PostgreSQL and MariaDB runs (side by side, so with less CPU each) skip them.
const fileOnly = describe.skipIf(TEST_DB !== 'sqlite');

fileOnly('decompression bombs are refused on every import route', () => {
  it('builds bombs of about a megabyte that would inflate to a gigabyte', () => {
    for (const b of bombs) expect(b.file.length, b.name).toBeLessThan(6 * MiB);
  });

  for (const { route, label } of ROUTES) {
    it(`${label}: each bomb is a 400 at once, memory stays flat, other requests are answered`, async () => {
      for (const b of bombs) expectRefused(await uploadUnderWatch(route, b.file, b.name), b.name, /^文件过大或已损坏：/);
    });
  }

  it('names the limit in its message', async () => {
    const mp = multipart(bombs[0].file, 'bomb.xlsx');
    const res = await session.app.inject({ method: 'POST', url: '/api/import/accountsStaff', headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
    expect(res.json().message).toMatch(/^文件过大或已损坏：.*超过 \d+ (MB|个)/);
    const lyingSst = multipart(bombs[1].file, 'bomb.xlsx');
    const res2 = await session.app.inject({ method: 'POST', url: '/api/import/acPayslip', headers: { ...bearer(session.token), ...lyingSst.headers }, payload: lyingSst.payload });
    expect(res2.json().message).toMatch(/^文件过大或已损坏：解压后的内容多于文件目录中声明的 4096 字节/);
    // within the archive's limits, over the reader's own for the shared-string table (never inflated)
    const sst = { ...deflated('xl/sharedStrings.xml', crypto.randomBytes(2 * MiB)), size: 200 * MiB };
    const big = multipart(zipOf(workbookWith(deflated('xl/worksheets/sheet1.xml', SMALL_SHEET), sst)), 'big.xlsx');
    const res3 = await session.app.inject({ method: 'POST', url: '/api/import/accountsCompany', headers: { ...bearer(session.token), ...big.headers }, payload: big.payload });
    expect(res3.statusCode).toBe(400);
    expect(res3.json().message).toBe('文件过大或已损坏：共享字符串表解压后超过 128 MB 的上限');
    // the workbook part: 20 MB declared, over its 16 MB
    const parts = workbookWith(deflated('xl/worksheets/sheet1.xml', SMALL_SHEET));
    parts[1] = { ...deflated('xl/workbook.xml', crypto.randomBytes(MiB / 4)), size: 20 * MiB };
    expect(() => openWorkbook(zipOf(parts))).toThrow('文件过大或已损坏：xl/workbook.xml 解压后超过 16 MB 的上限');
  });

  it('refuses an archive of more than 10,000 entries before reading any', () => {
    const tiny = Array.from({ length: 10_001 }, (_v, i): Part => ({ name: `f${i}`, data: Buffer.alloc(0), method: 0, crc: 0, size: 0 }));
    expect(() => openWorkbook(zipOf(tiny))).toThrow('文件过大或已损坏：压缩包中的文件超过 10000 个的上限');
  });
});

fileOnly('bombs within the archive limits are refused while streaming (S5)', () => {
  /** A sheet whose first row is the route's full header, so that the importer reads on into row 2. */
  const sheetAfterHeader = (header: string[], row2: string, x = '') =>
    `<${x}worksheet xmlns${x ? `:${x.slice(0, -1)}` : ''}="${MAIN}"><${x}sheetData><${x}row r="1">${header.map((h) => `<${x}c t="inlineStr"><${x}is><${x}t>${h}</${x}t></${x}is></${x}c>`).join('')}</${x}row><${x}row r="2">${row2}`;
  const END = '</row></sheetData></worksheet>';
  const SHEET = 'xl/worksheets/sheet1.xml';
  let wide = '';

  beforeAll(() => {
    for (let i = 0; i < 7800; i++) wide += `<c><v>${digits(1200)}</v></c>`;
  });

  /** The bombs for one route: each passes the archive's limits (size, ratio), so only the streaming caps stop it. */
  function sheetBombs(header: string[]): Bomb[] {
    const parts = [
      // one cell of about 300 MB (4 MiB of noise, then 'a')
      { name: 'one cell of 300 MB', part: underLimits(SHEET, `${sheetAfterHeader(header, '<c t="inlineStr"><is><t>')}`, base64Noise(4), 0x61, `</t></is></c>${END}`) },
      // a row of 300 MB in small cells (noise first, then millions of cells)
      { name: 'a row of 300 MB in small cells', part: underLimits(SHEET, sheetAfterHeader(header, noiseCells(3 * MiB, 1000)), '', '<c><v>1</v></c>', END) },
      { name: 'a row of 300 MB in self-closing cells', part: underLimits(SHEET, sheetAfterHeader(header, noiseCells(3 * MiB, 1000)), '', '<c s="1" r="B"/>', END) }, // 16 bytes: whole in each MiB
      // 7,800 cells of 1,200 random digits: each cell and the column count are fine, the row (9.5 MB) is not
      { name: 'a row of 9.5 MB', part: deflated(SHEET, `${sheetAfterHeader(header, wide)}${END}`) },
      // a cell reference far beyond Excel's last column (XFD): a sparse row of 321 million cells
      { name: 'a cell in column 321,272,406', part: deflated(SHEET, `${sheetAfterHeader(header, '<c r="ZZZZZZ2"><v>1</v></c>')}${END}`) },
      // written with a prefix (<x:row>), which the cheap byte-level row check does not see: the parser's caps do
      {
        name: 'a row of 90 MB in self-closing cells, prefixed',
        part: underLimits(SHEET, sheetAfterHeader(header, noiseCells(MiB, 1000).replace(/<(\/?)(c|is|t)\b/g, '<$1x:$2'), 'x:'), '', '<x:c r="B" s="1"/>'.padEnd(32), '</x:row></x:sheetData></x:worksheet>'),
      },
      { name: 'a cell in column 321,272,406, prefixed', part: deflated(SHEET, `${sheetAfterHeader(header, '<x:c r="ZZZZZZ2"><x:v>1</x:v></x:c>', 'x:')}</x:row></x:sheetData></x:worksheet>`) },
    ];
    for (const { name, part } of [...parts.slice(0, 3), parts[5]]) {
      expect(part.size, name).toBeGreaterThan(name.endsWith('prefixed') ? 50 * MiB : 200 * MiB);
      expect(part.size / part.data.length, name).toBeLessThan(100);
    }
    // one shared string of about 90 MB (under the table's own 128 MB ceiling; streamed, with the same caps)
    const sst = underLimits('xl/sharedStrings.xml', `<sst xmlns="${MAIN}"><si><t>`, base64Noise(1), 0x61, '</t></si></sst>');
    const withHeader = deflated(SHEET, `${sheetAfterHeader(header, '<c t="s"><v>0</v></c>')}${END}`);
    return [...parts.map(({ name, part }) => ({ name, file: zipOf(workbookWith(part)) })), { name: 'a shared string of 90 MB', file: zipOf(workbookWith(withHeader, sst)) }];
  }

  for (const { route, label, header } of ROUTES) {
    it(`${label}: 400 at once, memory flat, other requests answered`, async () => {
      for (const b of sheetBombs(header())) expectRefused(await uploadUnderWatch(route, b.file, b.name), b.name, /^文件过大或已损坏：/);
    });
  }

  it("a cell may hold Excel's 32,767 characters, not one more", async () => {
    const sheet = (n: number) => zipOf(workbookWith(deflated(SHEET, `${sheetAfterHeader(['x'], `<c t="inlineStr"><is><t>${'长'.repeat(n)}</t></is></c>`)}${END}`)));
    const rows = [];
    for await (const r of openWorkbook(sheet(32_767)).rows) rows.push(r);
    expect((rows[1].cells[0] as string).length).toBe(32_767);
    await expect(async () => {
      for await (const _r of openWorkbook(sheet(32_768)).rows);
    }).rejects.toThrow('文件过大或已损坏：第2行有超过 32767 个字符的单元格（Excel 的上限）');
  });
});

describe('a workbook written with a namespace prefix imports like any other (S9)', () => {
  /** The package with every SpreadsheetML element prefixed (`<x:row>`, `<x:c>`, `<x:v>`, `<x:si>`...). */
  async function withPrefix(buf: Buffer): Promise<Buffer> {
    const zip = await JSZip.loadAsync(buf);
    for (const name of Object.keys(zip.files)) {
      if (!/^xl\/(workbook|sharedStrings|styles|worksheets\/[^/]+)\.xml$/.test(name)) continue;
      const xml = await zip.file(name)!.async('string');
      zip.file(name, xml.replace(`xmlns="${MAIN}"`, `xmlns:x="${MAIN}"`).replace(/<(\/?)([A-Za-z_][\w.-]*)(?=[\s/>])/g, '<$1x:$2'));
    }
    const out = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(out.toString('latin1')).not.toContain('<row');
    return out;
  }
  const importFile = async (route: string, file: Buffer) => {
    const mp = multipart(await withPrefix(file), 'prefixed.xlsx');
    return session.app.inject({ method: 'POST', url: `/api/import/${route}`, headers: { ...bearer(session.token), ...mp.headers }, payload: mp.payload });
  };

  it('companies', async () => {
    const name = uniq('前缀单位');
    const header = ['单位名称', '服务方式', '服务费类型', '服务费', '残疾人就业保障金', '派遣单位', '公积金基数', '养老保险基数', '医疗保险基数', '失业保险基数', '工伤保险基数', '生育保险基数'];
    const res = await importFile('accountsCompany', workbook([header, [name, '劳务派遣', '按人头', 80, 0, '北京华派人力资源有限公司', 8000, 7162, 7162, 7162, 7162, 7162]]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, inserted: 1, failed: 0 });
    const row = await session.app.ctx.db.selectFrom('accounts_company').selectAll().where('company_name', '=', name).executeTakeFirst();
    expect(Number(row?.fee)).toBe(8000);
  });

  it('staff', async () => {
    const c = await createCompany(session.app, session.token, { companyName: uniq('前缀员工单位') });
    const header = ['所属单位', '姓名', '身份证号', '户籍类型', '手机号', '入职日期', '基本工资', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间'];
    const row = (name: string, seq: number) => [c.companyName, name, idCard('1990-01-01', seq), '本农', '13900001111', '2024-03-01', 6500, '工资薪金', '五险一金', 0, '2024-03-01', '已签订', '2024-03-01', '2026-02-28', '已参保', '2024-03-01'];
    const res = await importFile('accountsStaff', workbook([header, row('前缀甲', 1), row('前缀乙', 3)]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, inserted: 2, failed: 0 });
    const names = await session.app.ctx.db.selectFrom('accounts_staff').select('staff_name').where('company_id', '=', c.id).orderBy('id').execute();
    expect(names.map((r) => r.staff_name)).toEqual(['前缀甲', '前缀乙']);
  });

  it('payslips', async () => {
    const header = ['月份', '序号', '姓名', '身份证号', '银行', '基础工资', '本期应发', '养老(8%)', '应纳税额', '实发', '备注'];
    const id = idCard('1988-08-08', 5);
    const res = await importFile('acPayslip', workbook([header, ['2026-02', 1, '前缀工资条', id, '工行', 5000, 5000.5, 400, 0, 4600.5, '前缀']]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, inserted: 1 });
    const slip = await session.app.ctx.db.selectFrom('ac_payslip').selectAll().where('id_card', '=', id).executeTakeFirst();
    expect(slip).toMatchObject({ name: '前缀工资条', beizhu: '前缀' });
  });
});

describe('.xls files whose sector chains would make the reader loop or copy without end', () => {
  /**
   * A version-3 compound file (512-byte sectors): the FAT, one directory sector (a root and a "Workbook"
   * stream), then `n` data sectors from `first`, whose FAT entries `next` gives (-2 ends a chain).
   */
  function compoundFile(n: number, next: (sector: number, first: number) => number, workbookStart: (first: number) => number): Buffer {
    const fatSectors = Math.ceil((n + 8) / 127);
    const first = fatSectors + 1;
    const total = first + n;
    const body = Buffer.alloc(total * 512);
    for (let s = 0; s < fatSectors * 128; s++) {
      const v = s < fatSectors ? -3 : s === fatSectors ? -2 : s < total ? next(s, first) : -1;
      body.writeInt32LE(v, s * 4);
    }
    const entry = (slot: number, name: string, type: number, start: number, size: number) => {
      const off = fatSectors * 512 + slot * 128;
      const nm = Buffer.from(`${name}\0`, 'utf16le');
      nm.copy(body, off);
      body.writeUInt16LE(nm.length, off + 64);
      body[off + 66] = type;
      for (const k of [68, 72, 76]) body.writeInt32LE(-1, off + k);
      body.writeInt32LE(start, off + 116);
      body.writeInt32LE(size, off + 120);
    };
    entry(0, 'Root Entry', 5, -2, 0);
    entry(1, 'Workbook', 2, workbookStart(first), n * 512);
    const h = Buffer.alloc(512);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(h);
    h.writeUInt16LE(0x3e, 24);
    h.writeUInt16LE(3, 26);
    h.writeUInt16LE(0xfffe, 28);
    h.writeUInt16LE(9, 30);
    h.writeUInt16LE(6, 32);
    h.writeInt32LE(fatSectors, 44);
    h.writeInt32LE(fatSectors, 48); // directory
    h.writeInt32LE(4096, 56);
    h.writeInt32LE(-2, 60);
    h.writeInt32LE(-2, 68);
    for (let j = 0; j < 109; j++) h.writeInt32LE(j < fatSectors ? j : -1, 76 + j * 4);
    return Buffer.concat([h, body]);
  }

  const N = 2000; // 1 MB of sectors
  const xlsBombs: Bomb[] = [
    // a chain that loops, the stream starting inside it: SheetJS followed it until the process ran out of memory
    { name: 'a looping chain', file: compoundFile(N, (s, f) => (s === f + N - 2 ? f + 1 : s + 1 < f + N ? s + 1 : -2), (f) => f + 1) },
    // one chain laid out backwards: SheetJS copied it once per sector (1.1 GB for this 1 MB file)
    { name: 'a chain met from its end', file: compoundFile(N, (s, f) => (s === f ? -2 : s - 1), (f) => f + N - 1) },
    // a thousand chains merging into one: copied once per chain (0.6 GB)
    { name: 'merging chains', file: compoundFile(N, (s, f) => (s < f + N / 2 ? f + N / 2 : s + 1 < f + N ? s + 1 : -2), (f) => f + N / 2) },
  ];

  for (const { route, label } of ROUTES) {
    it(`${label}: 400 at once, memory flat, other requests answered`, async () => {
      for (const b of xlsBombs) {
        expect(b.file.length).toBeLessThan(1.1 * MiB);
        expectRefused(await uploadUnderWatch(route, b.file, b.name), b.name, /^文件已损坏，无法读取$/);
      }
    });
  }

  it('a record that makes SheetJS loop is read in a child process: a 400, the server up and answering', async () => {
    // a BIFF2 string record without data (found by fuzzing): SheetJS reads its length past the end and
    // then appends characters without end; in this process that was a fatal out-of-memory abort
    const rows: unknown[][] = [['姓名', '身份证号']];
    for (let i = 0; i < 300; i++) rows.push([`员工${i}`, idCard('1990-01-01', 2 * i + 1)]);
    rows.push(['BOMBCELL', 1]);
    const file = workbook(rows, 'xls');
    const at = file.indexOf(Buffer.from('BOMBCELL', 'utf16le'));
    const record = at - 13; // LABEL: type, length, row, column, format, character count, flags
    expect(file.subarray(record, record + 4).toString('hex')).toBe('04021900');
    Buffer.from([0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00]).copy(file, record); // STRING of 0 bytes, then a filler
    file.fill(0, record + 8, record + 29);
    for (const route of ['accountsStaff', 'acPayslip']) {
      const r = await uploadUnderWatch(route, file, 'looping record');
      expect(r.res.statusCode).toBe(400);
      expect(r.res.json().message).toMatch(/^文件过大或已损坏：读取时超过 \d+ MB 内存的上限$/);
      // the defect was a fatal abort of this process; the child keeps it up (the same loaded-machine bounds
      // as expectRefused: a 200 ms bound here failed a CI run)
      expect(r.growthMb).toBeLessThan(50);
      expect(r.slowestGetMs).toBeLessThan(1500);
    }
  }, 120_000);

  it('a directory of more than 4,096 entries is refused', () => {
    // the directory chain runs through all data sectors: 2,000 sectors of 4 entries
    const file = compoundFile(N, (s, f) => (s + 1 < f + N ? s + 1 : -2), () => -2);
    file.writeInt32LE(Math.ceil((N + 8) / 127) + 1, 48);
    expect(() => openWorkbook(file)).toThrow('文件已损坏，无法读取');
  });
});
