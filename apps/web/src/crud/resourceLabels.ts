import type { FieldDef, ResourceDef } from '@app/shared/resource';
import { RESOURCES } from '@app/shared/resources/index';
import { fieldLabelIn, resourceLabelIn } from '@app/shared/resources/labels';
import { currentLanguage } from '../app/i18n';

/**
 * Resource and field names in the UI language, from the definitions' own `labels` (packages/shared): the
 * screens and the server's messages read the same texts, and there is no label file on the web to keep in step.
 * Kept out of app/i18n so that the login page does not load the definitions.
 */

/** Label of a resource field in the current language (the definition's Chinese label when untranslated). */
export function fieldLabel(resourceName: string, field: Pick<FieldDef, 'name' | 'label'>): string {
  return fieldLabelIn(RESOURCES[resourceName], field, currentLanguage());
}

/** Name of a resource in the current language (the Chinese name when untranslated). */
export function resourceLabel(def: Pick<ResourceDef, 'name' | 'label'>): string {
  return resourceLabelIn(RESOURCES[def.name] ?? def, currentLanguage());
}
