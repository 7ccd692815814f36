/**
 * What a model computes and hands back, whether built in (TypeScript in this server) or external (an HTTP
 * service at the model's `site`): workbooks of plain sheets plus the top-10 "traits" the dashboard charts.
 */

import { FILE_TYPES, OUTPUT_KINDS, PARAMETER_TYPES } from '@app/shared/contracts/operations/models';
import type { CodedMessage } from '@app/shared/errors/catalogue';

/** The wire's lists live with the contracts (packages/shared/src/contracts/operations/models.ts). */
export { FILE_TYPES, OUTPUT_KINDS, PARAMETER_TYPES };

export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface ParameterInfo {
  parameterCode: string;
  parameterName: string;
  parameterType: ParameterType;
  /** Default used when a task leaves the parameter out (server extension). */
  defaultValue?: string | number | boolean | null;
}

export type OutputKind = (typeof OUTPUT_KINDS)[number];

export type FileType = (typeof FILE_TYPES)[number];

export type CellValue = string | number | boolean | null;

/**
 * A cell of an output sheet: a value, or a finding as a catalogue message, rendered when the workbook is written
 * (runModelTask's storeWorkbook), so a model never builds a sentence in one language.
 */
export type OutputCell = CellValue | CodedMessage;

export interface OutputSheet {
  name: string;
  columns: string[];
  /** Cell kinds by column (money = yuan with two decimals; default text/number from the value). */
  kinds?: ('text' | 'int' | 'number' | 'money' | 'date')[];
  rows: OutputCell[][];
}

export interface OutputFile {
  /** File name without extension (Chinese kept). */
  name: string;
  sheet: OutputSheet;
}

export interface ModelResult {
  files: OutputFile[];
  /** Top (name, number) pairs for /instrument/traitList, at most 10. */
  traits: [string, number][];
  /** Rows read from the data source. */
  rowsIn: number;
}

export type Row = Record<string, unknown>;

/** Census-type limits for the social-insurance base check, from the rate dictionaries (fen). */
export interface CensusLimits {
  /** staff base field (yanglaoBase ...) -> [floor, ceiling] in fen (null = none). */
  bases: Record<string, [number | null, number | null]>;
  /** staff ratio field (yanglaoRatioSelf ...) -> dictionary ratio text. */
  ratios: Record<string, string>;
}

export interface ModelInput {
  fields: string[];
  rows: AsyncIterable<Row>;
  /** Parameters coerced by parameterInfo. */
  params: Record<string, string | number | boolean | null>;
  /** The task's filter condition (a field of the data source), required by 单例 models. */
  property?: string | null;
  /** Today in China (YYYY-MM-DD); injected so that date rules are testable. */
  today: string;
  signal?: AbortSignal;
  /** Called every few thousand rows. */
  onRows?: (read: number) => void | Promise<void>;
  /** Rate limits per census type for a month (siBaseCheck), or why the type has none. */
  censusLimits?: (month: string, censusTypes: string[]) => Promise<Map<string, CensusLimits | CodedMessage>>;
}

export interface BuiltinModel {
  /** `builtin:<code>` is the model's site. */
  code: string;
  modelName: string;
  outputKind: OutputKind;
  fileType: FileType;
  parameterInfo: ParameterInfo[];
  /** Fields the input must have (a clear message otherwise). */
  requires?: string[];
  run(input: ModelInput): Promise<ModelResult>;
}
