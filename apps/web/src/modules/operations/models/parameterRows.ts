import type { ParameterInfo } from '../types';

/** A parameter row as the dialog edits it (empty strings while being typed). */
export interface ParameterDraft {
  parameterCode: string;
  parameterName: string;
  parameterType: ParameterInfo['parameterType'] | '';
  defaultValue?: ParameterInfo['defaultValue'];
}

export const emptyRow = (): ParameterDraft => ({ parameterCode: '', parameterName: '', parameterType: '' });

const filled = (r: ParameterDraft) => !!r.parameterCode.trim() && !!r.parameterName.trim() && !!r.parameterType;

/** A row with code, name and type all given (spec §5: the add button stays disabled until the last row is). */
export const rowComplete = filled;

/**
 * The spec §5 rules for the parameter rows, as message keys (models:rule.*), null when the rows pass: the first
 * row's code must be given; no row may be empty in code, name or type; no row may repeat an earlier row's code,
 * name and type together. A dialog whose rows are all blank sends no parameters (a model may have none).
 */
export function checkParameterRows(rows: readonly ParameterDraft[]): string | null {
  const used = rows.filter((r, i) => i === 0 || r.parameterCode.trim() || r.parameterName.trim() || r.parameterType);
  if (used.length === 1 && !used[0].parameterCode.trim() && !used[0].parameterName.trim() && !used[0].parameterType) return null;
  if (!used[0]?.parameterCode.trim()) return 'rule.paramFirst';
  for (const [i, r] of used.entries()) {
    if (!filled(r)) return 'rule.paramEmpty';
    const key = `${r.parameterCode.trim()}\u0000${r.parameterName.trim()}\u0000${r.parameterType}`;
    if (used.slice(0, i).some((o) => `${o.parameterCode.trim()}\u0000${o.parameterName.trim()}\u0000${o.parameterType}` === key)) return 'rule.paramDuplicate';
  }
  return null;
}

/** The rows the server gets: trimmed, blank trailing rows dropped. */
export function rowsToSend(rows: readonly ParameterDraft[]): ParameterInfo[] {
  return rows
    .filter((r) => r.parameterCode.trim() || r.parameterName.trim() || r.parameterType)
    .map((r) => {
      const out: ParameterInfo = { parameterCode: r.parameterCode.trim(), parameterName: r.parameterName.trim(), parameterType: r.parameterType as ParameterInfo['parameterType'] };
      if (r.defaultValue !== undefined && r.defaultValue !== '') out.defaultValue = r.defaultValue;
      return out;
    });
}
