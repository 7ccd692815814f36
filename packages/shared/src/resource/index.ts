export * from './types.ts';
export * from './validate.ts';
