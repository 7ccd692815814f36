import { api } from '../../../app/request';

/** The storage screens' calls (server: apps/server/src/modules/storage). */

export interface StorageConfig {
  provider: 'local' | 's3';
  accessKey: string;
  secretKey: string;
  hasSecret: boolean;
  bucket: string;
  host: string;
  zone: string;
  type: string;
  endpoint: string;
}

export interface StorageFile {
  id: number;
  key: string;
  objectKey: string;
  bucket: string;
  provider: string;
  type: string;
  size: string;
  bytes: number;
  suffix: string;
  username: string;
  updateTime: string;
}

export interface Picture {
  id: number;
  filename: string;
  username: string;
  url: string;
  size: number;
  width: number;
  height: number;
  createTime: string;
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export const ZONES = ['华东', '华北', '华南', '北美', '东南亚'] as const;
export const BUCKET_TYPES = ['公开', '私有'] as const;

export const FILE_READ = ['STORAGE_ALL', 'STORAGE_SELECT', 'PICTURE_ALL'];
export const FILE_UPLOAD = ['STORAGE_ALL', 'STORAGE_UPLOAD', 'PICTURE_ALL', 'PICTURE_UPLOAD'];
export const FILE_DELETE = ['STORAGE_ALL', 'STORAGE_DELETE', 'PICTURE_ALL', 'PICTURE_DELETE'];
export const CONFIG_EDIT = ['STORAGE_ALL', 'STORAGE_EDIT'];
export const PICTURE_UPLOAD = ['PICTURE_ALL', 'PICTURE_UPLOAD'];
export const PICTURE_DELETE = ['PICTURE_ALL', 'PICTURE_DELETE'];

export const storageApi = {
  config: () => api.get<StorageConfig>('/api/qiNiuConfig'),
  saveConfig: (body: Partial<StorageConfig>) => api.put('/api/qiNiuConfig', body),
  files: (params: Record<string, unknown>) => api.get<Page<StorageFile>>('/api/qiNiuContent', params),
  upload: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<{ id: number; errno: number; data: string[] }>('/api/qiNiuContent', form);
  },
  downloadUrl: (id: number) => api.get<{ url: string }>(`/api/qiNiuContent/download/${id}`),
  synchronize: () => api.post<{ message: string; added: number; missingRemote: number }>('/api/qiNiuContent/synchronize'),
  remove: (id: number) => api.del(`/api/qiNiuContent/${id}`),
  removeMany: (ids: number[]) => api.del('/api/qiNiuContent', ids),
  pictures: (params: Record<string, unknown>) => api.get<Page<Picture>>('/api/pictures', params),
  uploadPicture: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<Picture>('/api/pictures', form);
  },
  removePicture: (id: number) => api.del(`/api/pictures/${id}`),
  removePictures: (ids: number[]) => api.del('/api/pictures', ids),
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
