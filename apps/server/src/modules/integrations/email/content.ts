import crypto from 'node:crypto';
import type SanitizeHtml from 'sanitize-html';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { AppError } from '../../../core/errors.ts';
import type { InlineImage } from './mailer.ts';

/**
 * The body of a message from the e-mail tool: HTML from the rich-text editor, cleaned on the server whatever
 * the browser did (no `<script>`, no `on*` handlers, no `javascript:` links), and its pasted or uploaded
 * images (`data:` URLs) turned into inline `cid:` attachments, so that they show in every mail client
 * without the recipient reaching our server (private storage, intranet deployments).
 */

/** Cap of the decoded body with its images: below the 10 MB request limit once base64-encoded, and what most providers accept. */
export const MAX_CONTENT_MB = 7;
const MAX_IMAGES = 20;
const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const sanitizeHtml = onFirstUse<typeof SanitizeHtml>('sanitize-html');
let sanitizeOptions: SanitizeHtml.IOptions | undefined;
/** Built on first use, with the sanitiser (its default tag list is part of it). */
const SANITIZE = (): SanitizeHtml.IOptions => (sanitizeOptions ??= {
  allowedTags: [
    ...sanitizeHtml().defaults.allowedTags.filter((t) => t !== 'iframe'),
    'img',
    'span',
    'font',
    'u',
    's',
    'strike',
    'del',
    'ins',
    'sub',
    'sup',
    'hr',
    'br',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'style'],
    font: ['color', 'size', 'face'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'style'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'style'],
    table: ['border', 'cellpadding', 'cellspacing', 'width', 'style'],
    '*': ['style', 'align'],
  },
  // Inline styles are how mail clients render formatting; only harmless properties are kept.
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]{3,20}$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]{3,20}$/i],
      'text-align': [/^(left|right|center|justify)$/],
      'font-size': [/^\d{1,3}(\.\d+)?(px|pt|em|rem|%)$/],
      'font-weight': [/^(bold|normal|\d{3})$/],
      'font-style': [/^(italic|normal)$/],
      'text-decoration': [/^(underline|line-through|none)$/],
      width: [/^\d{1,4}(px|%)$/],
      height: [/^\d{1,4}(px|%)$/],
      'max-width': [/^\d{1,4}(px|%)$/],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'cid', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  // <script>, <style> and the like go with their content, not just their tags
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'head'],
  transformTags: {
    // links open in a new window and do not hand the opener over
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
  },
});

/** The HTML as it may be sent: scripts, event handlers and `javascript:` URLs removed. */
export function sanitizeMailHtml(html: string): string {
  return sanitizeHtml()(html, SANITIZE());
}

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]+)$/i;

/**
 * Sanitised HTML with each `data:image/...;base64` source replaced by `cid:` and its bytes as an attachment;
 * the bytes must be a PNG, JPEG, GIF or WebP image (magic bytes, not the declared type). Throws a 400 for
 * another type or when the message with its images is over MAX_CONTENT_MB.
 */
export async function prepareMailBody(html: string): Promise<{ html: string; images: InlineImage[] }> {
  const clean = sanitizeMailHtml(html);
  const images: InlineImage[] = [];
  const sources: string[] = [];
  // sanitize-html has already normalised attributes to double quotes
  const withCids = clean.replace(/(<img\b[^>]*?\bsrc=")([^"]*)(")/gi, (whole, before: string, src: string, after: string) => {
    if (!src.toLowerCase().startsWith('data:')) return whole;
    sources.push(src);
    return `${before}cid:__inline_${sources.length - 1}__${after}`;
  });
  if (sources.length > MAX_IMAGES) throw new AppError('EMAIL_CONTENT_TOO_LARGE', { max: MAX_CONTENT_MB });
  let total = Buffer.byteLength(withCids);
  for (const [i, src] of sources.entries()) {
    const m = DATA_URL.exec(src.replace(/&amp;/g, '&'));
    if (!m) throw new AppError('EMAIL_IMAGE_INVALID', {});
    const content = Buffer.from(m[2].replace(/\s+/g, ''), 'base64');
    total += content.length;
    if (total > MAX_CONTENT_MB * 1024 * 1024) throw new AppError('EMAIL_CONTENT_TOO_LARGE', { max: MAX_CONTENT_MB });
    const detected = await (await import('file-type')).fileTypeFromBuffer(content);
    const contentType = detected ? IMAGE_TYPES[detected.ext] : undefined;
    if (!detected || !contentType) throw new AppError('EMAIL_IMAGE_INVALID', {});
    const cid = `${crypto.randomUUID()}@mail`;
    images.push({ cid, filename: `image-${i + 1}.${detected.ext}`, contentType, content });
  }
  const out = withCids.replace(/cid:__inline_(\d+)__/g, (_w, i: string) => `cid:${images[Number(i)].cid}`);
  if (Buffer.byteLength(out) > MAX_CONTENT_MB * 1024 * 1024) throw new AppError('EMAIL_CONTENT_TOO_LARGE', { max: MAX_CONTENT_MB });
  return { html: out, images };
}

/** True when the HTML shows nothing (an editor's empty `<p><br></p>`). */
export function isBlankHtml(html: string): boolean {
  return sanitizeHtml()(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '') === '' && !/<img\b/i.test(html);
}
