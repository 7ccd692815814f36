import { AppError } from '../errors.ts';
import type { StoragePurpose } from './types.ts';

/**
 * Upload safety (issue 12 item 2). A file is accepted for a purpose only when its extension is on that purpose's
 * allow-list, its content (magic bytes, read with `file-type`) is what the extension says, and it is within the
 * purpose's size cap. Text formats have no magic bytes: they must contain no NUL byte and, except SVG, no markup
 * a browser would run (HTML, script). HTML and scripts are refused everywhere; SVG is accepted only as a plain
 * file and is never served inline (see `servesInline`).
 */

const MB = 1024 * 1024;

/** What each extension's content must be detected as (file-type's `ext`); `null` for text formats. */
const CONTENT_OF: Record<string, readonly string[] | null> = {
  png: ['png'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  webp: ['webp'],
  bmp: ['bmp'],
  pdf: ['pdf'],
  // OLE compound files (Office 97-2003)
  xls: ['cfb'],
  doc: ['cfb'],
  ppt: ['cfb'],
  xlsx: ['xlsx'],
  docx: ['docx'],
  pptx: ['pptx'],
  zip: ['zip'],
  rar: ['rar'],
  '7z': ['7z'],
  gz: ['gz'],
  mp3: ['mp3'],
  mp4: ['mp4', 'm4v', 'm4a'],
  csv: null,
  txt: null,
  json: null,
  md: null,
  log: null,
  svg: null,
};

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  xls: 'application/vnd.ms-excel',
  doc: 'application/msword',
  ppt: 'application/vnd.ms-powerpoint',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  md: 'text/markdown; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
};

const IMAGES = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;

export interface UploadPolicy {
  extensions: readonly string[];
  maxBytes: number;
}

/** Allow-list and size cap per purpose. `file` (the storage screen) follows STORAGE_MAX_MB (default 15). */
export function uploadPolicies(fileMaxBytes = 15 * MB): Record<StoragePurpose, UploadPolicy> {
  return {
    avatar: { extensions: IMAGES, maxBytes: 5 * MB },
    picture: { extensions: IMAGES, maxBytes: 10 * MB },
    mailImage: { extensions: IMAGES, maxBytes: 5 * MB },
    file: {
      extensions: [...IMAGES, 'bmp', 'svg', 'pdf', 'xls', 'xlsx', 'doc', 'docx', 'ppt', 'pptx', 'csv', 'txt', 'json', 'md', 'zip', 'rar', '7z', 'gz', 'mp3', 'mp4'],
      maxBytes: fileMaxBytes,
    },
    // spec §5/§9: data-source files are csv or Excel, under 2 GB
    dataSource: { extensions: ['csv', 'xls', 'xlsx', 'txt'], maxBytes: 2048 * MB },
    modelOutput: { extensions: ['xlsx', 'xls', 'csv', 'txt', 'json', 'zip', 'gz'], maxBytes: 2048 * MB },
  };
}

/** The accepted upload: its normalised extension, the type it is stored and served with, the cap it must stay under. */
export interface CheckedUpload {
  extension: string;
  contentType: string;
  maxBytes: number;
}

/** How many leading bytes `checkUpload` wants to see (xlsx/docx are recognised from their first zip entries). */
export const SNIFF_BYTES = 64 * 1024;

/** The lower-case extension of a client's file name, or a 400 when the name is unusable. */
export function extensionOf(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '');
  if (!base || base.length > 255 || base.includes('\u0000')) throw new AppError('STORAGE_NAME_INVALID', {});
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Markup a browser would render or run: a text file holding it is refused (except SVG, served as attachment). */
const MARKUP = /<\s*(!doctype\s+html|html|head|body|script|iframe|object|embed|svg|meta|link|form|img[^>]*\bon\w+\s*=)|\bjavascript\s*:/i;

/**
 * Check an upload before anything is stored: the extension is allowed for `purpose`, the first bytes are what the
 * extension claims, text is text. `firstBytes` should be the first `SNIFF_BYTES` of the file (fewer for small files).
 * Throws a 400 AppError; returns the extension, content type and size cap.
 */
export async function checkUpload(purpose: StoragePurpose, filename: string, firstBytes: Buffer, policies = uploadPolicies()): Promise<CheckedUpload> {
  const policy = policies[purpose];
  const extension = extensionOf(filename);
  if (!extension || !policy.extensions.includes(extension) || !(extension in CONTENT_OF)) {
    throw new AppError('STORAGE_TYPE_NOT_ALLOWED', { ext: extension || filename.slice(0, 40) });
  }
  if (firstBytes.length === 0) throw new AppError('STORAGE_EMPTY_FILE', {});
  const expected = CONTENT_OF[extension];
  const detected = await (await import('file-type')).fileTypeFromBuffer(firstBytes);
  if (expected) {
    if (!detected || !expected.includes(detected.ext)) throw new AppError('STORAGE_CONTENT_MISMATCH', { ext: extension });
  } else {
    // a text format: nothing binary may hide behind it
    if (detected || firstBytes.includes(0)) throw new AppError('STORAGE_CONTENT_MISMATCH', { ext: extension });
    const text = firstBytes.toString('utf8');
    if (extension === 'svg') {
      if (!/<svg[\s>]/i.test(text)) throw new AppError('STORAGE_CONTENT_MISMATCH', { ext: extension });
    } else if (MARKUP.test(text)) {
      throw new AppError('STORAGE_MARKUP_REFUSED', {});
    }
  }
  return { extension: extension === 'jpeg' ? 'jpg' : extension, contentType: CONTENT_TYPES[extension], maxBytes: policy.maxBytes };
}

/** The type a stored object is served with, from its key's extension (unknown: a download). */
export function contentTypeOfKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return CONTENT_TYPES[dot >= 0 ? key.slice(dot + 1).toLowerCase() : ''] ?? 'application/octet-stream';
}

/** Only raster images are ever shown inline; everything else (SVG, PDF, HTML that slipped in) is a download. */
export function servesInline(key: string): boolean {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return (IMAGES as readonly string[]).includes(ext);
}

/** `attachment` (or `inline`) with the name in ASCII and RFC 5987 UTF-8 (Chinese names survive every browser). */
export function contentDisposition(filename: string, inline = false): string {
  const clean = filename.replace(/[\r\n"\\]/g, '_').replace(/^.*[\\/]/, '') || 'download';
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

/** A human size (spec's storage list shows one): 1.5 MB, 320 KB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * MB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${(bytes / 1024 / MB).toFixed(2)} GB`;
}
