import type * as XLSX from '@e965/xlsx';
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** Where SheetJS lives: the child process that reads .xls files requires it from there. */
export const SHEETJS_PATH = requireHere.resolve('@e965/xlsx');

let sheetJsInThisProcess: typeof XLSX | undefined;
/**
 * SheetJS (@e965/xlsx, the maintained build) in this process, loaded on first use: only the tests' cross-check of
 * .xlsx reading and the .xls/.xlsx bank files need it here, so the server starts without its ~2 MB of source and
 * parsed code (a bigger live heap also lets V8 grow the heap further during a large import; optional-packages.test.ts).
 */
export const sheetJs = (): typeof XLSX => (sheetJsInThisProcess ??= requireHere('@e965/xlsx') as typeof XLSX);
