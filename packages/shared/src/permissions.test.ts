import { describe, expect, it } from 'vitest';
import { ALL_PERMISSION_CODES, BUILT_IN_PERMISSION_CODES, holdsPermissionCode, isBuiltInPermission, PERMISSION_GROUPS } from './permissions.ts';

describe('holdsPermissionCode (the "held" rule of granting)', () => {
  it('a code is held by itself, and ADMIN holds everything', () => {
    expect(holdsPermissionCode(['DICT_SELECT'], 'DICT_SELECT')).toBe(true);
    expect(holdsPermissionCode(new Set(['DICT_SELECT']), 'DICT_SELECT')).toBe(true);
    expect(holdsPermissionCode(['DICT_SELECT'], 'DICT_EDIT')).toBe(false);
    for (const code of [...ALL_PERMISSION_CODES, 'REPORT_SELECT']) expect(holdsPermissionCode(['ADMIN'], code), code).toBe(true);
    expect(holdsPermissionCode([], 'DICT_SELECT')).toBe(false);
  });

  it('a built-in group parent holds exactly its own built-in actions', () => {
    for (const g of PERMISSION_GROUPS) {
      for (const [suffix] of g.actions) expect(holdsPermissionCode([`${g.prefix}_ALL`], `${g.prefix}_${suffix}`)).toBe(true);
    }
    expect(holdsPermissionCode(['USER_ALL'], 'USER_EDIT')).toBe(true);
    // not another group's, not an action the group does not define, not ADMIN
    expect(holdsPermissionCode(['ACCENTRY_ALL'], 'DEPT_ALL')).toBe(false);
    expect(holdsPermissionCode(['ACCENTRY_ALL'], 'DEPT_CREATE')).toBe(false);
    expect(holdsPermissionCode(['USERJOB_ALL'], 'USER_SELECT')).toBe(false);
    expect(holdsPermissionCode(['REDIS_ALL'], 'REDIS_EDIT')).toBe(false);
    expect(holdsPermissionCode(['USER_ALL'], 'ADMIN')).toBe(false);
    // a child never holds its parent
    expect(holdsPermissionCode(['USER_SELECT', 'USER_CREATE', 'USER_EDIT', 'USER_DELETE'], 'USER_ALL')).toBe(false);
  });

  it('operator-made codes are held only by exact name, whatever their name looks like', () => {
    expect(holdsPermissionCode(['REPORT_ALL'], 'REPORT_SELECT')).toBe(false);
    expect(holdsPermissionCode(['USER_ALL'], 'USER_EXPORT')).toBe(false);
    expect(holdsPermissionCode(['REPORT_SELECT'], 'REPORT_SELECT')).toBe(true);
  });

  it('knows the shipped codes', () => {
    expect(BUILT_IN_PERMISSION_CODES.size).toBe(ALL_PERMISSION_CODES.length);
    expect(isBuiltInPermission('ADMIN')).toBe(true);
    expect(isBuiltInPermission('DEPT_ALL')).toBe(true);
    expect(isBuiltInPermission('PICTURE_UPLOAD')).toBe(true);
    expect(isBuiltInPermission('REPORT_ALL')).toBe(false);
  });
});
