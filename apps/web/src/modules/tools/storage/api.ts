import {
  BUCKET_TYPES,
  deletePicture,
  deletePictures,
  deleteStorageFile,
  deleteStorageFiles,
  listPictures,
  listStorageFiles,
  type Picture,
  STORAGE_ZONES,
  type StorageConfig,
  type StorageFile,
  saveStorageConfig,
  storageConfig,
  type storageConfigBody,
  storageFileDownload,
  synchronizeStorage,
  uploadPicture,
  uploadStorageFile,
} from '@app/shared/contracts/storage';
import type { z } from 'zod';
import { type CallInput, callContract, contractCodes, uploadContract } from '../../../app/contractClient';

/** The storage screens' calls, through the contracts of packages/shared/src/contracts/storage.ts. */

export type { Picture, StorageConfig, StorageFile };
export { BUCKET_TYPES };
export const ZONES = STORAGE_ZONES;

export const FILE_READ = contractCodes(storageFileDownload);
export const FILE_UPLOAD = contractCodes(uploadStorageFile);
export const FILE_DELETE = contractCodes(deleteStorageFile);
export const CONFIG_EDIT = contractCodes(saveStorageConfig);
export const PICTURE_UPLOAD = contractCodes(uploadPicture);
export const PICTURE_DELETE = contractCodes(deletePicture);

const fileForm = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};

export const storageApi = {
  config: () => callContract(storageConfig, {}),
  saveConfig: (body: z.input<typeof storageConfigBody>) => callContract(saveStorageConfig, { body }),
  files: (query: CallInput<typeof listStorageFiles>['query']) => callContract(listStorageFiles, { query }),
  upload: (file: File) => uploadContract(uploadStorageFile, fileForm(file)),
  downloadUrl: (id: number) => callContract(storageFileDownload, { params: { id } }),
  synchronize: () => callContract(synchronizeStorage, {}),
  remove: (id: number) => callContract(deleteStorageFile, { params: { id } }),
  removeMany: (ids: number[]) => callContract(deleteStorageFiles, { body: ids }),
  pictures: (query: CallInput<typeof listPictures>['query']) => callContract(listPictures, { query }),
  uploadPicture: (file: File) => uploadContract(uploadPicture, fileForm(file)),
  removePicture: (id: number) => callContract(deletePicture, { params: { id } }),
  removePictures: (ids: number[]) => callContract(deletePictures, { body: ids }),
};

/** Open a download URL (a signed link of our own route, a presigned bucket URL or a public one). */
export function openDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.target = '_blank';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
