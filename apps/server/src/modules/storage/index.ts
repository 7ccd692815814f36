import type { FastifyInstance } from 'fastify';
import { registerStorageConfig } from './config.ts';
import { registerStorageFiles } from './files.ts';
import { registerPictures } from './pictures.ts';
import { registerUploadToken } from './uploadToken.ts';

/** 系统工具 › 存储管理 and 图床管理: the storage configuration, the file list, direct-upload tokens, pictures. */
export function registerStorageModule(app: FastifyInstance): void {
  registerStorageConfig(app);
  registerStorageFiles(app);
  registerUploadToken(app);
  registerPictures(app);
}
