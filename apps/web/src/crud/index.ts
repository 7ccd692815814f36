/**
 * The generic resource screen and its building blocks, for screens that need more than the plain page:
 * compose `useResourceList` + `SearchBar` + `ResourceTable` + `ResourceForm` (or `CrudDialog` + `FieldItem`).
 */
export { default as ResourcePage, type ResourcePageProps } from './ResourcePage';
export { ResourceTable, deleteRows, stripEmptyChildren, type ResourceTableProps } from './ResourceTable';
export { BatchDeleteButton, useBatchDelete, type BatchDelete } from './BatchDelete';
export {
  CrudDialog,
  FieldItem,
  FormResetOnMount,
  ResourceForm,
  ResourceFormFields,
  sectionsOf,
  type CrudDialogProps,
  type DialogMode,
  type FieldOverride,
  type ResourceFormProps,
} from './CrudDialog';
export { type KeywordOptions, SearchBar, type SearchBarProps, SearchButtons, SearchItem, type SearchItemProps, SearchRow } from './SearchBar';
export { ExcelButtons, ImportDialog, importFileProblem, type ImportResult } from './Excel';
export { applyFieldErrors, resourceQueryKeys, useApiMutation, useResourceMutation, type ApiMutationOptions, type ResourceMutationOptions } from './mutations';
export {
  FieldControl,
  RefSelect,
  alignOf,
  chooserFields,
  detailFields,
  dictNames,
  fieldRules,
  filterFields,
  formFields,
  formValuesToBody,
  initialFormValues,
  isSortable,
  labelOf,
  listFields,
  refLabel,
  renderValue,
  resourceLabel,
  toFormValue,
  useRefOptions,
} from './fields';
export { formatDate, formatDateTime, formatMoney, formatRatio } from './format';
export { columnPrefsKey, loadColumnPrefs, saveColumnPrefs, useColumnPrefs, type ColumnPrefs } from './columnPrefs';
export { DEFAULT_PAGE_SIZE, PAGE_SIZES, useResourceList, type PageResult, type ResourceList, type ResourceListOptions, type Row, type SortOrder } from './useResourceList';
