export * from './types.ts';
export * from './kinds.ts';
export { idInput, idListInput, MAX_LINKS, maxLengthOf } from './inputSchemas.ts';
export * from './valueRules.ts';
export * from './schema.ts';
