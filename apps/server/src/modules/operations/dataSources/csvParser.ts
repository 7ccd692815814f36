/**
 * An incremental RFC 4180 CSV parser: text is pushed in chunks as it is decoded and complete records come
 * out, so a large file never has to be held as one string. Quoted fields may hold the delimiter, doubled
 * quotes and line breaks; CRLF, LF and lone CR end a record. The delimiter is the one of `,` `\t` `;` that the
 * first line (outside quotes) uses most (Chinese Excel saves "CSV" with commas; some exports use tabs).
 */
export class CsvParser {
  private delimiter: string | undefined;
  private pending = '';
  private field = '';
  private record: string[] = [];
  private inQuotes = false;
  /** The previous character closed a quoted run: a second quote means a literal quote. */
  private quoteClosed = false;
  private sawCr = false;
  /** 1-based number of the line the current record started on (for messages). */
  private line = 1;
  private recordLine = 1;

  /** Feeds decoded text; returns the records completed by it, with the line each started on. */
  push(text: string): { line: number; cells: string[] }[] {
    if (this.delimiter === undefined) {
      this.pending += text;
      const firstLineEnd = firstLineBreakOutsideQuotes(this.pending);
      if (firstLineEnd < 0 && this.pending.length < 1024 * 1024) return [];
      this.delimiter = sniffDelimiter(firstLineEnd < 0 ? this.pending : this.pending.slice(0, firstLineEnd));
      text = this.pending;
      this.pending = '';
    }
    return this.consume(text);
  }

  /** Ends the input; returns the last record, and throws when a quoted field never closed. */
  finish(): { line: number; cells: string[] }[] {
    const out = this.delimiter === undefined ? this.push('\n') : [];
    if (this.delimiter === undefined) return out;
    if (this.inQuotes) throw new Error(`第${this.recordLine}行的引号没有闭合`);
    if (this.field !== '' || this.record.length) {
      this.record.push(this.field);
      out.push({ line: this.recordLine, cells: this.record });
      this.record = [];
      this.field = '';
    }
    return out;
  }

  private consume(text: string): { line: number; cells: string[] }[] {
    const out: { line: number; cells: string[] }[] = [];
    const d = this.delimiter!;
    let field = this.field;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.sawCr) {
        this.sawCr = false;
        if (c === '\n') continue; // CRLF: the record ended at the CR
      }
      if (this.inQuotes) {
        if (c === '"') {
          this.inQuotes = false;
          this.quoteClosed = true;
        } else {
          if (c === '\n' || c === '\r') this.line++;
          field += c;
        }
        continue;
      }
      if (c === '"' && (this.quoteClosed || field === '')) {
        // a quote opens a quoted run at a field's start; right after a closing quote it is a doubled ("") one
        if (this.quoteClosed) field += '"';
        this.inQuotes = true;
        this.quoteClosed = false;
        continue;
      }
      this.quoteClosed = false;
      if (c === d) {
        this.record.push(field);
        field = '';
      } else if (c === '\n' || c === '\r') {
        if (c === '\r') this.sawCr = true;
        this.record.push(field);
        field = '';
        out.push({ line: this.recordLine, cells: this.record });
        this.record = [];
        this.line++;
        this.recordLine = this.line;
      } else field += c;
    }
    this.field = field;
    return out;
  }
}

function firstLineBreakOutsideQuotes(text: string): number {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return i;
  }
  return -1;
}

function sniffDelimiter(line: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    ['\t', 0],
    [';', 0],
  ]);
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best = ',';
  for (const [c, n] of counts) if (n > counts.get(best)!) best = c;
  return best;
}
