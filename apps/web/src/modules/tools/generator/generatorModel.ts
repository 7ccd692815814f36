import { type GeneratorColumnInput, type GeneratorColumnRow, generateCode, generatorColumns, getGenConfig, listGeneratorTables } from '@app/shared/contracts/generator';
import { contractKey } from '../../../app/contractClient';

/** The pure parts of the 代码生成 screen: what a save sends, the preview's tab names, the reads a write refreshes. */

/** The settings the server stores for a column (what PUT and POST send). */
export function columnPayload(rows: readonly GeneratorColumnRow[]): GeneratorColumnInput[] {
  return rows.map(({ columnName, label, kind, columnQuery, columnShow, formShow, required, dictName }) => ({ columnName, label, kind, columnQuery, columnShow, formShow, required, dictName }));
}

/**
 * Tab names for the generated files: the file name, or as many of the last folders as make it unique
 * (fields.acPayslip.json of zh and en are 'zh/fields.acPayslip.json' and 'en/fields.acPayslip.json', U18).
 */
export function uniqueTabLabels(paths: readonly string[]): string[] {
  const parts = paths.map((p) => p.split('/'));
  return parts.map((segments) => {
    for (let n = 1; n < segments.length; n++) {
      const label = segments.slice(-n).join('/');
      if (parts.filter((other) => other.slice(-n).join('/') === label).length === 1) return label;
    }
    return segments.join('/');
  });
}

/** Every read of the screen: a saved configuration or column setting changes the tables' marks and the previews. */
export const GENERATOR_READS = [contractKey(listGeneratorTables), contractKey(generatorColumns), contractKey(getGenConfig), contractKey(generateCode)];
