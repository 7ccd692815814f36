/** Every namespace of this language in one module (one chunk per language), keyed by namespace (file name). */
export default import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });
