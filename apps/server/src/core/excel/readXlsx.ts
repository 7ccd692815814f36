import { checkEntrySize, readZipDirectory, readZipEntry, streamZipEntry, verifyZipEntry, type ZipEntry } from './zip.ts';
import { type SheetRow, type WorkbookRows, WorkbookFormatError } from './types.ts';
import { dateStyleIndexes } from './dateStyles.ts';
import { asWorkbookError, CHUNK_BYTES, MAX_SHARED_STRINGS_BYTES, MAX_SHEET_BYTES, MAX_XML_PART_BYTES } from './readXlsxLimits.ts';
import { readSharedStrings, readSheetRows, shapeChecked, sheetShapeCheck } from './readXlsxSheet.ts';
import { OFFICE_REL, PACKAGE_REL, SML, visitElements } from './readXlsxXml.ts';

/**
 * A streaming reader for the first worksheet of an .xlsx package. The worksheet XML is inflated chunk by
 * chunk and tokenized by saxes (a conforming, non-validating XML parser), so a 100,000-row sheet needs
 * memory for one chunk plus the shared-string table, not for the whole uncompressed sheet (SheetJS holds
 * the entire XML and every cell, which for large imports is several times the file size in RAM), and
 * SpreadsheetML written with a namespace prefix (`<x:row>`) reads like any other. Formula cells give their
 * cached value, as Excel shows it. .xls (BIFF) files are read by SheetJS (readXls.ts); tests check both
 * readers agree on the same workbook.
 *
 * An upload is hostile until proven otherwise. Each part has a ceiling on its inflated size (below zip.ts's
 * limits for the whole archive), checked on the sizes the archive declares before anything is inflated and
 * again while inflating; while parsing, a token (one text, tag or comment), a row, a cell, the column count
 * and the element depth are capped, each refused with a message naming the limit.
 *
 * This file finds the parts in the package and puts them together; the ceilings are in readXlsxLimits.ts, the XML
 * plumbing (namespaces, small parts, the chunk feeder) in readXlsxXml.ts, the streamed shared strings and sheet rows
 * in readXlsxSheet.ts.
 */

function relationships(xml: string): { id: string; type: string; target: string }[] {
  const out: { id: string; type: string; target: string }[] = [];
  visitElements(xml, PACKAGE_REL, (local, attr) => {
    if (local !== 'Relationship') return;
    const id = attr('Id');
    const target = attr('Target');
    if (id && target && attr('TargetMode') !== 'External') out.push({ id, type: attr('Type') ?? '', target });
  });
  return out;
}

function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}


/**
 * The cell styles that show dates, from styles.xml (numFmts, then the cellXfs list that a cell's `s` indexes;
 * the xfs of cellStyleXfs come before it and are not cell styles). A missing or unreadable part means none.
 */
function readDateStyles(xml: string | undefined): Set<number> {
  if (!xml) return new Set();
  const custom = new Map<number, string>();
  const cellXfs: number[] = [];
  let inCellXfs = false;
  try {
    visitElements(xml, SML, (local, attr) => {
      if (local === 'numFmt') custom.set(Number(attr('numFmtId')), attr('formatCode') ?? '');
      else if (local === 'cellXfs') inCellXfs = true;
      else if (local === 'cellStyleXfs' || local === 'cellStyles' || local === 'dxfs') inCellXfs = false;
      else if (local === 'xf' && inCellXfs) cellXfs.push(Number(attr('numFmtId') ?? 0));
    });
  } catch {
    return new Set();
  }
  return dateStyleIndexes(custom, cellXfs);
}

/** Open the first visible worksheet of an .xlsx package held in `buf`. */
export function readXlsx(buf: Buffer): WorkbookRows {
  const entries = readZipDirectory(buf);
  const text = (e: ZipEntry | undefined) => (e ? readZipEntry(buf, e, MAX_XML_PART_BYTES).toString('utf8') : undefined);
  let workbookPath = 'xl/workbook.xml';
  if (!entries.has(workbookPath)) {
    const rootRels = text(entries.get('_rels/.rels'));
    const officeDoc = rootRels ? relationships(rootRels).find((r) => r.type.endsWith('/officeDocument')) : undefined;
    if (officeDoc) workbookPath = resolveTarget('', officeDoc.target);
  }
  const workbookXml = text(entries.get(workbookPath));
  let isWorkbook = false;
  let date1904 = false;
  const sheets: { name: string; rid?: string; hidden: boolean }[] = [];
  if (workbookXml) {
    visitElements(workbookXml, SML, (local, attr) => {
      if (local === 'workbook') isWorkbook = true;
      else if (local === 'workbookPr') date1904 = /^(1|true)$/.test(attr('date1904') ?? '');
      else if (local === 'sheet') sheets.push({ name: attr('name') ?? '', rid: attr('id', OFFICE_REL) ?? attr('id', 'prefixed'), hidden: /^(hidden|veryHidden)$/.test(attr('state') ?? '') });
    });
  }
  if (!isWorkbook) throw new WorkbookFormatError('FILE_NOT_WORKBOOK');
  const relsPath = resolveTarget(workbookPath, `_rels/${workbookPath.split('/').pop()}.rels`);
  const rels = relationships(text(entries.get(relsPath)) ?? '<Relationships/>');
  const sheet = sheets.find((s) => !s.hidden) ?? sheets[0];
  const sheetRel = sheet?.rid ? rels.find((r) => r.id === sheet.rid) : undefined;
  if (!sheet || !sheetRel) throw new WorkbookFormatError('FILE_NO_SHEET');
  const sheetEntry = entries.get(resolveTarget(workbookPath, sheetRel.target));
  if (!sheetEntry) throw new WorkbookFormatError('FILE_SHEET_MISSING');
  checkEntrySize(sheetEntry, '工作表', MAX_SHEET_BYTES);
  const sstRel = rels.find((r) => r.type.endsWith('/sharedStrings')) ?? rels.find((r) => /sharedStrings\.xml$/i.test(r.target));
  const sstEntry = sstRel ? entries.get(resolveTarget(workbookPath, sstRel.target)) : undefined;
  if (sstEntry) checkEntrySize(sstEntry, '共享字符串表', MAX_SHARED_STRINGS_BYTES);
  const stylesRel = rels.find((r) => r.type.endsWith('/styles'));
  const dateStyles = readDateStyles(text(stylesRel ? entries.get(resolveTarget(workbookPath, stylesRel.target)) : undefined));

  // The shared strings are read (streamed, like the sheet) once, by whichever comes first: verify or the rows.
  let sst: Promise<string[]> | undefined;
  const sharedStrings = () => (sst ??= sstEntry ? readSharedStrings(streamZipEntry(buf, sstEntry, CHUNK_BYTES)) : Promise.resolve([]));
  const verify = async () => {
    try {
      await sharedStrings();
      await verifyZipEntry(buf, sheetEntry, sheetShapeCheck());
    } catch (err) {
      throw asWorkbookError(err);
    }
  };
  async function* rows(): AsyncGenerator<SheetRow> {
    try {
      const strings = await sharedStrings();
      yield* readSheetRows(shapeChecked(streamZipEntry(buf, sheetEntry!, CHUNK_BYTES)), strings, dateStyles);
    } catch (err) {
      throw asWorkbookError(err);
    }
  }
  return { format: 'xlsx', sheetName: sheet.name, date1904, rows: rows(), verify };
}
