import type { FieldDef } from '@app/shared/resource';
import { fieldLabel, resourceLabel } from './resourceLabels';

/** Label of a field in the current language (the definition's `labels`, else the Chinese label). */
export const labelOf: (resource: string, field: Pick<FieldDef, 'name' | 'label'>) => string = fieldLabel;

/** Name of a resource in the current language (the definition's `labels._label`, else the Chinese label). */
export { resourceLabel };
