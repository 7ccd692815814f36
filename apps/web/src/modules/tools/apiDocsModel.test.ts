import { describe, expect, it } from 'vitest';
import { groupOperations, type OpenApiDoc, typeOf } from './apiDocsModel';

// The 接口文档 screen's reading of the OpenAPI document (U25): groups in the document's tag order, search over
// path, summary and the group's shown name, parameters and JSON body fields in one table.

const doc: OpenApiDoc = {
  tags: [{ name: '登录' }, { name: '单位' }, { name: '存储管理' }],
  paths: {
    '/api/localStorage': { get: { tags: ['存储管理'], summary: '文件列表', parameters: [{ name: 'page', in: 'query', schema: { type: 'integer' } }] } },
    '/api/accountsCompany': {
      post: {
        tags: ['单位'],
        summary: '新增单位',
        description: '权限：ADMIN 或 ACCOUNTSCOMPANY_CREATE',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['companyName'], properties: { companyName: { type: 'string', description: '单位名称' }, fee: { anyOf: [{ type: 'number' }, { type: 'null' }] } } } } } },
      },
      delete: { tags: ['单位'], summary: '删除单位', requestBody: { content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' } } } } } },
    },
    '/auth/login': { post: { tags: ['登录'], summary: '登录' } },
    '/api/import/x': { post: { tags: ['导入'], summary: '上传', requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } } } },
  },
};

describe('groupOperations', () => {
  it('groups by tag in the document order, tags it does not list last', () => {
    const groups = groupOperations(doc);
    expect(groups.map((g) => g.tag)).toEqual(['登录', '单位', '存储管理', '导入']);
    expect(groups[1].operations.map((o) => o.key)).toEqual(['post /api/accountsCompany', 'delete /api/accountsCompany']);
  });

  it('lists parameters and body fields with type and required', () => {
    const [create, remove] = groupOperations(doc)[1].operations;
    expect(create.description).toContain('ACCOUNTSCOMPANY_CREATE');
    expect(create.fields).toEqual([
      { name: 'companyName', in: 'body', required: true, type: 'string', description: '单位名称' },
      { name: 'fee', in: 'body', required: false, type: 'number', description: '' },
    ]);
    expect(remove.fields).toEqual([{ name: '(body)', in: 'body', required: false, type: 'integer[]', description: '' }]);
    const upload = groupOperations(doc).at(-1)!.operations[0];
    expect(upload.bodyType).toBe('multipart/form-data');
    expect(groupOperations(doc)[2].operations[0].fields[0]).toMatchObject({ name: 'page', in: 'query', type: 'integer' });
  });

  it('searches path, summary and the shown group name', () => {
    expect(groupOperations(doc, 'localstorage').map((g) => g.tag)).toEqual(['存储管理']);
    expect(groupOperations(doc, '删除').flatMap((g) => g.operations.map((o) => o.key))).toEqual(['delete /api/accountsCompany']);
    expect(groupOperations(doc, 'companies', (t) => (t === '单位' ? 'Companies' : t)).map((g) => g.tag)).toEqual(['单位']);
    expect(groupOperations(doc, 'nothing-like-this')).toEqual([]);
  });

  it('names types briefly', () => {
    expect(typeOf({ type: ['string', 'null'] })).toBe('string');
    expect(typeOf({ type: 'string', format: 'date' })).toBe('string (date)');
    expect(typeOf(undefined)).toBe('');
  });
});
