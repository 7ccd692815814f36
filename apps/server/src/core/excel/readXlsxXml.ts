import { StringDecoder } from 'node:string_decoder';
import type * as Saxes from 'saxes';
import type { SaxesParser, SaxesTagNS, SaxesTagPlain } from 'saxes';
import { onFirstUse } from '../onFirstUse.ts';
import { MAX_DEPTH, MAX_ROW_BYTES, MAX_TOKEN_BYTES, rowTooLong, tokenTooLong } from './readXlsxLimits.ts';
import { WorkbookFormatError } from './types.ts';

/**
 * The XML side of the .xlsx reader: SpreadsheetML's namespaces, small parts (workbook, relationships, styles) read
 * whole with saxes resolving namespaces, and streamed parts (shared strings, sheet) fed chunk by chunk to a plain
 * parser whose element names LocalNames resolves.
 */

/** The XML tokenizer, loaded with the first workbook read. */
export const saxes = onFirstUse<typeof Saxes>('saxes');

/** SpreadsheetML's main namespace, transitional and strict. */
export const SML = new Set(['http://schemas.openxmlformats.org/spreadsheetml/2006/main', 'http://purl.oclc.org/ooxml/spreadsheetml/main']);
/** Relationship ids on `<sheet r:id>`, transitional and strict. */
export const OFFICE_REL = new Set(['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'http://purl.oclc.org/ooxml/officeDocument/relationships']);
/** Package relationships (`.rels` parts). */
export const PACKAGE_REL = new Set(['http://schemas.openxmlformats.org/package/2006/relationships']);

const OOXML_ESCAPE_RE = /_x([0-9A-Fa-f]{4})_/g;

/** Text with OOXML's `_xHHHH_` escapes resolved (XML entities are the parser's). */
export function unescapeOoxml(s: string): string {
  return s.includes('_x') ? s.replace(OOXML_ESCAPE_RE, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : s;
}

// ------------------------------------------------------------------ small parts (workbook, relationships)

/** An attribute by local name: in no namespace, in one of a set, or in any namespace but none ('prefixed'). */
export type AttrOf = (local: string, ns?: Set<string> | 'prefixed') => string | undefined;

/**
 * The elements of a small part, namespaces resolved by saxes: `visit` sees those in `namespaces` (or in no
 * namespace at all, as some writers leave them).
 */
export function visitElements(xml: string, namespaces: Set<string>, visit: (local: string, attr: AttrOf) => void): void {
  const parser = new (saxes().SaxesParser)({ xmlns: true, position: false });
  let depth = 0;
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++depth > MAX_DEPTH) throw new WorkbookFormatError('FILE_CORRUPT');
    if (tag.uri !== '' && !namespaces.has(tag.uri)) return;
    visit(tag.local, (local, ns) => {
      for (const a of Object.values(tag.attributes)) {
        if (a.local === local && (ns === 'prefixed' ? a.uri !== '' : ns ? ns.has(a.uri) : a.uri === '')) return a.value;
      }
      return undefined;
    });
  });
  parser.on('closetag', () => {
    depth--;
  });
  parser.write(xml).close();
}

// ------------------------------------------------------------------ streamed parts (shared strings, sheet)

/**
 * Element names of one namespace in a streamed part, for a parser that does not resolve namespaces itself
 * (saxes' own resolution halves its speed). Declarations are rare (usually all on the root): the parser's
 * attribute events flag them, and only then are an element's attributes read; names are resolved through
 * a cache that a declaration clears, or at once when unprefixed and the default namespace is ours.
 * `open` and `close` give an element's local name, or '' when it is in another namespace.
 */
export class LocalNames {
  private scopes: Map<string, string>[] = [new Map()];
  private declaredAt: number[] = [];
  private cache = new Map<string, string>();
  /** The default namespace in scope is ours (or none): unprefixed names are ours as they are. */
  private plain = true;
  /** The element being opened declares a namespace (set by the parser's attribute events). */
  private declaring = false;
  depth = 0;

  constructor(
    parser: PlainParser,
    private readonly namespaces: Set<string>,
  ) {
    parser.on('attribute', (a: { name: string }) => {
      if (a.name.charCodeAt(0) === 120 && (a.name === 'xmlns' || a.name.startsWith('xmlns:'))) this.declaring = true;
    });
  }

  open(tag: SaxesTagPlain): string {
    if (++this.depth > MAX_DEPTH) throw new WorkbookFormatError('FILE_LIMIT_DEPTH', { max: MAX_DEPTH });
    if (this.declaring) {
      this.declaring = false;
      const declared = new Map(this.scopes[this.scopes.length - 1]);
      for (const [name, value] of Object.entries(tag.attributes)) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) declared.set(name === 'xmlns' ? '' : name.slice(6), value);
      }
      this.scopes.push(declared);
      this.declaredAt.push(this.depth);
      this.rescope();
    }
    return this.local(tag.name);
  }

  close(name: string): string {
    const local = this.local(name);
    if (this.declaredAt[this.declaredAt.length - 1] === this.depth) {
      this.scopes.pop();
      this.declaredAt.pop();
      this.rescope();
    }
    this.depth--;
    return local;
  }

  private rescope(): void {
    this.cache.clear();
    const fallback = this.scopes[this.scopes.length - 1].get('');
    this.plain = fallback === undefined || fallback === '' || this.namespaces.has(fallback);
  }

  private local(qname: string): string {
    if (this.plain && qname.indexOf(':') < 0) return qname;
    let local = this.cache.get(qname);
    if (local === undefined) {
      const i = qname.indexOf(':');
      const uri = this.scopes[this.scopes.length - 1].get(i < 0 ? '' : qname.slice(0, i));
      // unprefixed without a default namespace: accepted, as before (some writers omit xmlns)
      const ours = uri === undefined ? i < 0 : uri === '' || this.namespaces.has(uri);
      local = ours ? qname.slice(i + 1) : '';
      this.cache.set(qname, local);
    }
    return local;
  }
}

/** What a streamed part's handlers share with the loop that feeds the parser. */
export interface StreamState {
  /** The part, as users may know it (工作表, 共享字符串表). */
  part: string;
  /** Parse events so far (a token cap: bytes fed without any event). */
  events: number;
  /** Bytes fed before the current chunk. */
  fed: number;
  /** `fed` when the open row started, or -1. */
  rowStart: number;
  /** The rest of the part is not needed (after `</sheetData>`): it is only inflated, for its CRC. */
  done: boolean;
}

/**
 * Feed a part's chunks to `parser`; after each chunk, the items its handlers collected in `out` are
 * yielded as one batch. Checks the token and row caps between chunks.
 */
export async function* feed<T>(chunks: AsyncIterable<Buffer>, parser: PlainParser, state: StreamState, out: T[], currentRow: () => number): AsyncGenerator<T[]> {
  const decoder = new StringDecoder('utf8');
  let quiet = 0;
  for await (const chunk of chunks) {
    if (state.done) continue;
    const events = state.events;
    parser.write(decoder.write(chunk));
    state.fed += chunk.length;
    quiet = state.events === events ? quiet + chunk.length : 0;
    if (quiet > MAX_TOKEN_BYTES) throw tokenTooLong(state.part);
    if (state.rowStart >= 0 && state.fed - state.rowStart > MAX_ROW_BYTES) throw rowTooLong(currentRow());
    if (out.length) yield out.splice(0);
  }
  if (!state.done) parser.write(decoder.end()).close();
  if (out.length) yield out.splice(0);
}

/** Streamed parts: saxes without its own namespace handling or position tracking (both cost time). */
type PlainOptions = { xmlns: false; position: false };
export type PlainParser = SaxesParser<PlainOptions>;
export const newParser = (): PlainParser => new (saxes().SaxesParser)<PlainOptions>({ xmlns: false, position: false });
