/**
 * Compile-time test on a real contract (issue 21; the mechanism is probed in app/contractClient.typetest.ts): the
 * 代码生成 screen's calls stop compiling when a field of contracts/generator.ts is renamed. `tsc -p tsconfig.json`
 * reports an unused `@ts-expect-error` if any line below compiles, so each one must stay an error.
 */
import { generateCode, type generatorColumns, listGeneratorTables, type saveGeneratorColumns } from '@app/shared/contracts/generator';
import { type CallInput, callContract } from '../../../app/contractClient';

// @ts-expect-error the query field is `tableName`, not `table`
export const wrongQueryField: CallInput<typeof generatorColumns> = { query: { table: 'accounts_staff' } };

// @ts-expect-error a column setting has no `show` (it is `columnShow`)
export const wrongBodyField: CallInput<typeof saveGeneratorColumns> = { query: { tableName: 'accounts_staff' }, body: [{ columnName: 'id', show: true }] };

// @ts-expect-error the preview flag is a query parameter, not part of the body
export const previewInBody: CallInput<typeof generateCode> = { query: { tableName: 'accounts_staff' }, body: { preview: true } };

export async function readsTheAnswer(): Promise<number> {
  const tables = await callContract(listGeneratorTables, { query: { page: 0, size: 10 } });
  // @ts-expect-error the page's count is `totalElements`, not `total`
  void tables.total;
  const preview = await callContract(generateCode, { query: { tableName: 'accounts_staff', preview: true }, body: [] });
  // @ts-expect-error a generated file carries `content`, not `text`
  void preview.files[0]?.text;
  return tables.totalElements + preview.files.length;
}
