import type SanitizeHtml from 'sanitize-html';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { sanitizeMailHtml } from './content.ts';

const sanitizeHtml = onFirstUse<typeof SanitizeHtml>('sanitize-html');

/**
 * The text/plain alternative of an HTML mail (finding M10): mail clients that show text only, screen readers
 * and spam filters read it, and a message with HTML alone scores as spam with some providers. It is derived
 * from the sanitised HTML, so nothing the HTML part drops (scripts, handlers) can come back in the text:
 * blocks and <br> become line breaks, list items "- ", table cells tabs, a link "text (address)", an image its
 * alt text; entities are decoded and runs of blank lines collapsed.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const BLOCK_END = /<\/(p|div|h[1-6]|tr|table|ul|ol|blockquote|pre|section|article|header|footer)>/gi;

export function htmlToPlainText(html: string): string {
  const clean = sanitizeMailHtml(html)
    .replace(/\r?\n/g, ' ')
    .replace(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, inner: string) => {
      const label = inner.replace(/<[^>]*>/g, '').trim();
      const url = decodeEntities(href);
      return !label || decodeEntities(label) === url || url.startsWith('cid:') ? label || url : `${label} (${href})`;
    })
    .replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/gi, (_m, alt: string) => (alt ? `[${alt}]` : ''))
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(td|th)>/gi, '\t')
    .replace(BLOCK_END, '\n\n')
    .replace(/<(p|div|h[1-6]|tr|table|ul|ol|blockquote|pre)\b[^>]*>/gi, '\n');
  const bare = decodeEntities(sanitizeHtml()(clean, { allowedTags: [], allowedAttributes: {} }));
  return bare
    .split('\n')
    .map((line) => line.replace(/[ \u00a0]+/g, ' ').replace(/ *\t */g, '\t').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
