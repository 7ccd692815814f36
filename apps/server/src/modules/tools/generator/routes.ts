import { type GeneratorColumnInput, generateCode, generatorColumns, getGenConfig, listGeneratorTables, saveGeneratorColumns, updateGenConfig } from '@app/shared/contracts/generator';
import { RESOURCES } from '@app/shared/resources/index';
import type { FastifyInstance } from 'fastify';
import type Yazl from 'yazl';
import { MIGRATIONS } from '../../../../migrations/index.ts';
import { AppError } from '../../../core/errors.ts';
import { onFirstUse } from '../../../core/onFirstUse.ts';
import { routeContract } from '../../../crud/registerContract.ts';
import { type ColumnSetting, camelCase, DEFAULT_GEN_CONFIG, type GenConfig, type GeneratedFile, resourceNameOf } from './definition.ts';
import { generateFiles } from './generate.ts';
import { isIdentifier } from './printing.ts';
import { type ColumnInfo, listColumns, listTables } from './introspect.ts';
import { type ColumnView, columnSettings, definitionOfTable, readGenConfig, saveColumnSettings, saveGenConfig } from './settings.ts';

/**
 * 系统工具 › 代码生成 (spec §7 Generator; issue 12 item 6): the tables of the connected database, their columns
 * with per-column settings, the generator's configuration, and the generated files of a table as a preview or a
 * zip, each route from its contract (packages/shared/src/contracts/generator.ts). Table names from the client are
 * only ever compared with the introspected list; SQL gets them as bound parameters. Nothing is written to the
 * server's file system.
 */

const yazl = onFirstUse<typeof Yazl>('yazl');

/** Merge the client's column array over the stored/default settings; unknown or repeated columns are a 400. */
function mergeSettings(current: ColumnView[], input: GeneratorColumnInput[]): ColumnSetting[] {
  const byName = new Map(current.map((c) => [c.columnName, c]));
  const seen = new Set<string>();
  const out = new Map<string, ColumnSetting>(
    current.map((c) => [c.columnName, { columnName: c.columnName, label: c.label, kind: c.kind, columnQuery: c.columnQuery, columnShow: c.columnShow, formShow: c.formShow, required: c.required, dictName: c.dictName }]),
  );
  for (const i of input) {
    const base = byName.get(i.columnName);
    if (!base) throw new AppError('GENERATOR_COLUMN_NOT_FOUND', { value: i.columnName.slice(0, 64) });
    if (seen.has(i.columnName)) throw new AppError('GENERATOR_COLUMN_DUPLICATE', { value: i.columnName });
    seen.add(i.columnName);
    const s = out.get(i.columnName)!;
    if (i.label !== undefined) s.label = i.label || base.label;
    if (i.kind !== undefined) s.kind = i.kind;
    if (i.columnQuery !== undefined) s.columnQuery = i.columnQuery ?? '';
    if (i.columnShow !== undefined) s.columnShow = i.columnShow;
    if (i.formShow !== undefined) s.formShow = i.formShow;
    if (i.required !== undefined) s.required = i.required;
    if (i.dictName !== undefined) s.dictName = i.dictName ?? '';
    // a dictionary makes the field a dictionary field; leaving the dict kind without a name falls back to text
    if (s.dictName) s.kind = 'dict';
    else if (s.kind === 'dict') s.kind = 'string';
  }
  return [...out.values()];
}

function zipOf(files: GeneratedFile[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new (yazl().ZipFile)();
    // yazl sets the UTF-8 name flag for non-ASCII names, so Chinese file names survive every unzip tool
    for (const f of files) zip.addBuffer(Buffer.from(f.content, 'utf8'), f.path, { mtime: new Date() });
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** One past the number of the server's last migration (the generated draft's file name). */
function nextMigrationNumber(): number {
  return MIGRATIONS.reduce((n, [name]) => Math.max(n, Number(/^(\d+)/.exec(name)?.[1] ?? 0)), 0) + 1;
}

export function registerGenerator(app: FastifyInstance): void {
  const db = () => app.ctx.db;

  /** The table of this name in the connected database, or a 400 (the only way a client name reaches SQL). */
  async function knownTable(name: string): Promise<{ table: string; label: string; columns: ColumnInfo[] }> {
    const found = (await listTables(db(), app.ctx.dialect)).find((t) => t.tableName === name);
    if (!found) throw new AppError('GENERATOR_TABLE_NOT_FOUND', { value: name.slice(0, 64) });
    const columns = await listColumns(db(), app.ctx.dialect, found.tableName);
    return { table: found.tableName, label: found.remark || definitionOfTable(found.tableName)?.label || found.tableName, columns };
  }

  routeContract(app, listGeneratorTables, async (req) => {
    const needle = (req.query.name ?? '').trim().toLowerCase();
    const all = (await listTables(db(), app.ctx.dialect)).filter((t) => !needle || t.tableName.toLowerCase().includes(needle) || t.remark.toLowerCase().includes(needle));
    const slice = all.slice(req.query.page * req.query.size, (req.query.page + 1) * req.query.size);
    const configured = new Set(
      slice.length
        ? (
            await db()
              .selectFrom('gen_column')
              .select('table_name')
              .where(
                'table_name',
                'in',
                slice.map((t) => t.tableName),
              )
              .groupBy('table_name')
              .execute()
          ).map((r) => String(r.table_name))
        : [],
    );
    return {
      content: slice.map((t) => ({ ...t, resource: definitionOfTable(t.tableName)?.name ?? null, configured: configured.has(t.tableName) })),
      totalElements: all.length,
    };
  });

  routeContract(app, generatorColumns, async (req) => {
    const { table, columns } = await knownTable(req.query.tableName);
    const content = await columnSettings(db(), table, columns);
    return { content, totalElements: content.length };
  });

  routeContract(app, saveGeneratorColumns, async (req, reply) => {
    const { table, columns } = await knownTable(req.query.tableName);
    const settings = mergeSettings(await columnSettings(db(), table, columns), req.body);
    await saveColumnSettings(db(), table, settings, columns);
    return reply.code(204).send();
  });

  routeContract(app, getGenConfig, async () => readGenConfig(db()));

  routeContract(app, updateGenConfig, async (req) => {
    const b = req.body;
    const config: GenConfig = {
      author: b.author,
      pack: b.pack,
      moduleName: b.moduleName,
      path: b.path,
      apiPath: b.apiPath,
      cover: b.cover ?? false,
      prefix: b.prefix ?? '',
      menuParent: b.menuParent ?? '',
      menuIcon: b.menuIcon || DEFAULT_GEN_CONFIG.menuIcon,
    };
    await saveGenConfig(db(), config);
    return config;
  });

  routeContract(app, generateCode, async (req, reply) => {
    const { table, label, columns } = await knownTable(req.query.tableName);
    // each column becomes a field name of the definition: it must be an identifier, whatever the database allows
    const unnamed = columns.find((c) => !isIdentifier(camelCase(c.columnName)));
    if (unnamed) throw new AppError('GENERATOR_COLUMN_IDENTIFIER', { value: unnamed.columnName.slice(0, 64) });
    const current = await columnSettings(db(), table, columns);
    const input = req.body ?? [];
    const settings = mergeSettings(current, input);
    const config = await readGenConfig(db());
    const files = generateFiles({
      table,
      tableLabel: label,
      columns,
      settings,
      config,
      migrationNumber: nextMigrationNumber(),
      date: new Date().toISOString().slice(0, 10),
    });
    // the settings used are remembered (the spec's POST carries the column array)
    if (input.length) await saveColumnSettings(db(), table, settings, columns);
    const resourceName = resourceNameOf(table, config.prefix);
    if (req.query.preview) {
      const warnings: { code: 'NAME_TAKEN' | 'TABLE_DEFINED'; value: string }[] = [];
      if (Object.hasOwn(RESOURCES, resourceName)) warnings.push({ code: 'NAME_TAKEN', value: resourceName });
      const defined = definitionOfTable(table);
      if (defined) warnings.push({ code: 'TABLE_DEFINED', value: defined.name });
      return { tableName: table, resourceName, files, warnings };
    }
    const zip = await zipOf(files);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${resourceName}.zip"; filename*=UTF-8''${encodeURIComponent(`${label}-${resourceName}.zip`)}`)
      .send(zip);
  });
}
