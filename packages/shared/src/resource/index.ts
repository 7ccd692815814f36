export * from './types.ts';
export * from './kinds.ts';
export * from './schema.ts';
