import type { ComponentType } from 'react';

/**
 * Every antd icon, by component name. Imported only lazily (app/icons.tsx), so the set is one chunk that the
 * icon picker or an unusual menu icon fetches, never part of the login or first screen. The icon files are
 * globbed instead of importing the '@ant-design/icons' index: that index is also imported statically, and a
 * lazy import of it would pull the whole set into the static chunks.
 */
const modules = import.meta.glob<{ default: ComponentType }>(
  [
    '../../../../node_modules/@ant-design/icons/es/icons/*Outlined.js',
    '../../../../node_modules/@ant-design/icons/es/icons/*Filled.js',
    '../../../../node_modules/@ant-design/icons/es/icons/*TwoTone.js',
  ],
  { eager: true },
);

export const ALL_ICONS = new Map<string, ComponentType>();
for (const [path, mod] of Object.entries(modules)) {
  const m = /\/([A-Za-z0-9]+)\.js$/.exec(path);
  if (m) ALL_ICONS.set(m[1], mod.default);
}
