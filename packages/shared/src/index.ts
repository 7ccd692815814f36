export * from './resource/index.ts';
export * from './permissions.ts';
