import { describe, expect, it } from 'vitest';
import { checkParameterRows, rowComplete, rowsToSend } from './models/parameterRows';
import { shelfButtons } from './models/ModelsPage';
import { needsProperty } from './tasks/TaskDialog';
import { taskButtons } from './tasks/TasksPage';

describe('spec §4 button rules', () => {
  it('enables 开始/暂停/恢复 by isPause (0 enabled, 1 paused, 2 finished, 3 running)', () => {
    expect(taskButtons(0)).toEqual({ start: true, pause: true, resume: false });
    expect(taskButtons(1)).toEqual({ start: true, pause: false, resume: true });
    expect(taskButtons(2)).toEqual({ start: false, pause: false, resume: false });
    expect(taskButtons(3)).toEqual({ start: false, pause: false, resume: false });
  });
  it('disables edit, 上架 and delete on shelf, 下架 off shelf', () => {
    expect(shelfButtons(1)).toEqual({ edit: false, putOn: false, remove: false, takeOff: true });
    expect(shelfButtons(2)).toEqual({ edit: true, putOn: true, remove: true, takeOff: false });
  });
  it('asks for a filter condition only for a model whose name contains 单例', () => {
    expect(needsProperty('单特征分布（单例）')).toBe(true);
    expect(needsProperty('交叉特征分析')).toBe(false);
    expect(needsProperty(undefined)).toBe(false);
  });
});

describe('spec §5 parameter rows', () => {
  const row = (parameterCode: string, parameterName: string, parameterType: '' | 'String' | 'Interger' | 'Boolean') => ({ parameterCode, parameterName, parameterType });
  it('accepts no parameters at all, and complete distinct rows', () => {
    expect(checkParameterRows([row('', '', '')])).toBeNull();
    expect(checkParameterRows([row('a', 'A', 'String'), row('a', 'A', 'Interger')])).toBeNull();
  });
  it('requires the first row code, refuses empty parts and a repeated code+name+type', () => {
    expect(checkParameterRows([row('', 'A', 'String')])).toBe('rule.paramFirst');
    expect(checkParameterRows([row('a', '', 'String')])).toBe('rule.paramEmpty');
    expect(checkParameterRows([row('a', 'A', 'String'), row('b', 'B', '')])).toBe('rule.paramEmpty');
    expect(checkParameterRows([row('a', 'A', 'String'), row(' a', 'A ', 'String')])).toBe('rule.paramDuplicate');
  });
  it('keeps 添加 disabled until the row is complete and sends trimmed rows without blank trailing ones', () => {
    expect(rowComplete(row('a', 'A', ''))).toBe(false);
    expect(rowComplete(row('a', 'A', 'Boolean'))).toBe(true);
    expect(rowsToSend([row(' a ', ' A ', 'String'), row('', '', '')])).toEqual([{ parameterCode: 'a', parameterName: 'A', parameterType: 'String' }]);
  });
});
