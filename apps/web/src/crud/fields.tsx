/**
 * Everything the generic pages derive from a field definition: where it appears (list, detail, form,
 * search: fieldPlacement.ts), its label (fieldLabels.ts), how its value is shown (fieldDisplay.tsx), which
 * control edits it (fieldControls.tsx, RefSelect.tsx) and which rules check it (fieldForm.ts: the shared
 * `validateField`, so the dialog says exactly what the server would say). One import for the pages.
 */
export * from './fieldControls';
export * from './fieldDisplay';
export * from './fieldForm';
export * from './fieldLabels';
export * from './fieldPlacement';
export * from './RefSelect';
