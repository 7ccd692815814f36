/**
 * The .xlsx reader: time to read a large sheet, and how decompression bombs are refused.
 *
 *   node --import tsx bench/excel-reader.ts          100,000 rows (BENCH_ROWS to change)
 *
 * 1. read every row of a 100,000-row staff sheet (21 columns, 120 MB of sheet XML, inline strings as the
 *    own writer makes them) with the integrity pass, as an import does: wall and CPU time, RSS growth;
 * 2. bombs of about a megabyte (shared strings or worksheet inflating to 1 GiB, declared or understated;
 *    a 300 MB cell within the archive's limits): time to the refusal, RSS growth and the longest event-loop stall
 *    (targets: well under a second, flat memory, no stall of 200 ms — other requests are answered meanwhile).
 */
import crypto from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { openWorkbook } from '../apps/server/src/core/excel/readWorkbook.ts';
import { streamXlsx } from '../apps/server/src/core/excel/xlsxStream.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MiB = 1024 * 1024;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

async function staffFile(): Promise<Buffer> {
  const headers = ['所属单位', '姓名', '身份证号', '户籍类型', '民族', '手机号', '住址', '入职日期', '部门', '岗位', '基本工资', '银行卡号', '税种', '保险种类', '专项附加扣除', '派遣日期', '合同状态', '合同开始', '合同结束', '参保状态', '参保时间'];
  function* rows() {
    for (let i = 0; i < ROWS; i++) {
      yield [`测试单位${i % 50}`, `王伟导入${i}`, `110101199001${String(i).padStart(6, '0')}`, ['本城', '本农', '外城', '外农'][i % 4], '汉族', `139${String(10_000_000 + i).slice(0, 8)}`, `北京市海淀区测试路${i}号`, '2024-03-01', '运营部', '专员', 5000 + (i % 5000) + 0.5, `6222${String(100_000_000_000_000 + i)}`, '工资薪金', '五险一金', i % 3 === 0 ? 1500 : 0, '2024-03-01', '已签订', '2024-03-01', '2027-02-28', '已参保', '2024-03-01'];
    }
  }
  const dates = new Set(['入职日期', '派遣日期', '合同开始', '合同结束', '参保时间']);
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await streamXlsx(out, {
    fileName: 'staff',
    columns: headers.map((h, i) => ({ header: h, kind: dates.has(h) ? 'date' : h === '基本工资' || h === '专项附加扣除' ? 'money' : 'text', value: (r: unknown[]) => r[i] })),
    rows: rows(),
  });
  return Buffer.concat(chunks);
}

interface Part {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

const deflated = (name: string, text: string): Part => ({ name, data: zlib.deflateRawSync(text), crc: zlib.crc32(text), size: Buffer.byteLength(text) });

/** prefix + mib MiB of 'a' + suffix, deflated piecewise (full-flushed pieces concatenate into one stream). */
function bomb(name: string, prefix: string, mib: number, suffix: string): Part {
  const flush = { finishFlush: zlib.constants.Z_FULL_FLUSH };
  const block = Buffer.alloc(MiB, 0x61);
  const deflatedBlock = zlib.deflateRawSync(block, flush);
  const head = zlib.deflateRawSync(Buffer.from(prefix), flush);
  let crc = zlib.crc32(prefix);
  for (let i = 0; i < mib; i++) crc = zlib.crc32(block, crc);
  crc = zlib.crc32(suffix, crc);
  const data = Buffer.concat([head, ...Array.from({ length: mib }, () => deflatedBlock), zlib.deflateRawSync(Buffer.from(suffix))]);
  return { name, data, crc, size: Buffer.byteLength(prefix) + mib * MiB + Buffer.byteLength(suffix) };
}

function zipOf(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(8, 8);
    h.writeUInt32LE(p.crc >>> 0, 14);
    h.writeUInt32LE(p.data.length, 18);
    h.writeUInt32LE(p.size, 22);
    h.writeUInt16LE(name.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(8, 10);
    c.writeUInt32LE(p.crc >>> 0, 16);
    c.writeUInt32LE(p.data.length, 20);
    c.writeUInt32LE(p.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    chunks.push(h, name, p.data);
    central.push(c, name);
    offset += 30 + name.length + p.data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, dir, end]);
}

function workbookWith(sheet: Part, sst?: Part): Buffer {
  return zipOf([
    deflated('xl/workbook.xml', `<workbook xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    deflated(
      'xl/_rels/workbook.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ),
    ...(sst ? [sst] : []),
    sheet,
  ]);
}

/** Open, verify and read every row, as an import does; the error message if refused. */
async function measure(file: Buffer) {
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  // the longest the event loop could not serve anything else: a request arriving meanwhile waits at most this
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rows = 0;
  let refused = '';
  try {
    const wb = openWorkbook(file);
    await wb.verify?.();
    for await (const _r of wb.rows) rows++;
  } catch (err) {
    refused = (err as Error).message;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  // no sample at all (a refusal faster than the 5 ms resolution) is a 0 ms stall
  const loopStallMs = loop.count > 0 ? Math.round(loop.max / 1e6) : 0;
  return { rows, refused, ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), rssGrowthMb: Math.round((peak - rss0) / MiB), loopStallMs };
}

async function main() {
  const os = await import('node:os');
  console.log(`excel reader benchmark: ${ROWS} rows, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`);
  const staff = await staffFile();
  for (let i = 0; i < 2; i++) console.log(`read ${ROWS} staff rows (${(staff.length / MiB).toFixed(1)} MB file)`.padEnd(44), JSON.stringify(await measure(staff)));

  const smallSheet = deflated('xl/worksheets/sheet1.xml', `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c t="s"><v>0</v></c></row></sheetData></worksheet>`);
  const sstBomb = bomb('xl/sharedStrings.xml', `<sst xmlns="${MAIN}"><si><t>`, 1024, '</t></si></sst>');
  const sheetBomb = bomb('xl/worksheets/sheet1.xml', `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c t="inlineStr"><is><t>`, 1024, '</t></is></c></row></sheetData></worksheet>');
  const understated = (p: Part): Part => ({ ...p, size: 4096, crc: 0 });
  // within the archive's limits: 4 MiB of noise first keeps the ratio under 100:1
  const noise = crypto.randomBytes(4 * MiB).toString('base64');
  const cell = bomb('xl/worksheets/sheet1.xml', `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c t="inlineStr"><is><t>${noise}`, 300, '</t></is></c></row></sheetData></worksheet>');
  const bombs: [string, Buffer][] = [
    ['shared strings, 1 GiB declared', workbookWith(smallSheet, sstBomb)],
    ['shared strings, 4 KB declared', workbookWith(smallSheet, understated(sstBomb))],
    ['worksheet, 1 GiB declared', workbookWith(sheetBomb)],
    ['worksheet, 4 KB declared', workbookWith(understated(sheetBomb))],
    ['one 300 MB cell within the limits', workbookWith(cell)],
  ];
  for (const [name, file] of bombs) console.log(`bomb: ${name} (${(file.length / MiB).toFixed(1)} MB)`.padEnd(44), JSON.stringify(await measure(file)), ' target: refused, well under 1 s, flat memory, the event loop never held 200 ms (issue 13: other requests answered within 200 ms)');
}

await main();
