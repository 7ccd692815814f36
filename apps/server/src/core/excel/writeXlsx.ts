/**
 * The one entry point for writing workbooks: the cell rules (xlsxCells.ts) and the lean streaming writer
 * (xlsxStream.ts: constant memory, several times faster than ExcelJS's streaming writer). Split in two files so
 * that the writer can use the rules without importing this facade back (no import cycle).
 */
export * from './xlsxCells.ts';
export { sendXlsxStream as sendXlsx, streamXlsx as writeXlsx } from './xlsxStream.ts';
