import { describe, expect, it } from 'vitest';
import { readScreenRegistry } from '../../build/pageChunks';
import { moduleScreens } from './registry';

// The build reads registry.ts as text to know each screen's file (dist/page-chunks.json, the server's
// modulepreload hints): it must find every screen the app itself knows.
describe('screen registry as the build reads it', () => {
  it('has every screen key, each with its module file', () => {
    const read = readScreenRegistry();
    expect([...read.keys()].sort()).toEqual(Object.keys(moduleScreens).sort());
    expect(read.get('system/user/index')).toMatch(/modules[\\/]system[\\/]UserPage\.tsx$/);
  });
});
