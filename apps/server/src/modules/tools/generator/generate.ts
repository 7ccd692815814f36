import { DEFAULT_GEN_CONFIG, definitionOf, type GeneratedFile, type GenerateInput, humanise } from './definition.ts';
import { commentText } from './printing.ts';
import { definitionFile, menuFile, migrationFile, readme } from './templates.ts';
import { toSnakeCase } from '@app/shared/resource/types';

/**
 * The code generator's output: *this project's* artefacts for one table (issue 12 item 6) — a resource
 * definition (`defineResource`, field kinds of FIELD_KINDS), a Kysely migration built with the project's
 * TableSpec vocabulary, the menu row and permission codes the definition implies (the start-up sync creates them
 * from its `menu` and `permission`), and the field-label texts for the definition's `labels` and the web's menu.json. Pure: it
 * only returns texts; nothing is ever written into the server's source tree (the screen previews them and
 * offers them as a zip).
 */

/** All files of a table, in the order the preview shows them. */
export function generateFiles(input: GenerateInput): GeneratedFile[] {
  const def = definitionOf(input);
  const migrationName = `${String(input.migrationNumber).padStart(4, '0')}_${input.table.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const dir = (d: string, fallback: string) => (d.trim() || fallback).replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  const paths = {
    definition: `${dir(input.config.pack, DEFAULT_GEN_CONFIG.pack)}/${def.name}.ts`,
    migration: `${dir(input.config.moduleName, DEFAULT_GEN_CONFIG.moduleName)}/${migrationName}.ts`,
    menu: `${dir(input.config.apiPath, DEFAULT_GEN_CONFIG.apiPath)}/${def.name}.menu.json`,
    locales: dir(input.config.path, DEFAULT_GEN_CONFIG.path),
  };
  const labels = (lang: 'en' | 'es' | 'ja') => ({
    fields: {
      [def.name]: {
        _label: def.menu?.titles[lang] ?? def.name,
        ...Object.fromEntries(def.fields.map((f) => [f.name, f.name === 'id' ? 'ID' : humanise(f.column ?? toSnakeCase(f.name))])),
      },
    },
    menu: { [def.label]: def.menu?.titles[lang] ?? def.name },
  });
  const localeFiles: GeneratedFile[] = (['en', 'es', 'ja'] as const).flatMap((lang) => {
    const l = labels(lang);
    return [
      { path: `${paths.locales}/${lang}/fields.${def.name}.json`, language: 'json' as const, content: `${JSON.stringify(l.fields, null, 2)}\n` },
      { path: `${paths.locales}/${lang}/menu.${def.name}.json`, language: 'json' as const, content: `${JSON.stringify(l.menu, null, 2)}\n` },
    ];
  });
  return [
    { path: paths.definition, language: 'typescript', content: definitionFile(input, def) },
    { path: paths.migration, language: 'typescript', content: migrationFile(input, def, migrationName) },
    { path: paths.menu, language: 'json', content: menuFile(def, migrationName, input.config) },
    ...localeFiles,
    { path: `${commentText(def.label).replace(/[\\/:*?"<>|]/g, '_')}-说明.md`, language: 'markdown', content: readme(input, def, paths, migrationName) },
  ];
}
