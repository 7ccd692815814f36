import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Per-deployment secrets: the RSA key pair for login passwords and the token signing secret. */
export interface AuthKeys {
  rsaPrivateKey: crypto.KeyObject;
  rsaPublicKeyPem: string;
  tokenSecret: Buffer;
}

/** Load the keys from `<dataDir>/keys`, generating them on first start (never committed, never shared). */
export function loadOrCreateKeys(dataDir: string): AuthKeys {
  const dir = path.join(dataDir, 'keys');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const privPath = path.join(dir, 'login-rsa-private.pem');
  const secretPath = path.join(dir, 'token.secret');
  if (!fs.existsSync(privPath)) {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(privPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  if (!fs.existsSync(secretPath)) fs.writeFileSync(secretPath, crypto.randomBytes(48).toString('base64'), { mode: 0o600 });
  return keysFromPem(fs.readFileSync(privPath, 'utf8'), Buffer.from(fs.readFileSync(secretPath, 'utf8').trim(), 'base64'));
}

/** Build keys from a PEM private key and a secret (tests share one generated pair to save time). */
export function keysFromPem(privatePem: string, tokenSecret: Buffer): AuthKeys {
  const rsaPrivateKey = crypto.createPrivateKey(privatePem);
  const rsaPublicKeyPem = crypto.createPublicKey(rsaPrivateKey).export({ type: 'spki', format: 'pem' }).toString();
  return { rsaPrivateKey, rsaPublicKeyPem, tokenSecret };
}

/** Decrypt a base64 RSA-OAEP-SHA256 ciphertext sent by the login form; null when it is not one. */
export function decryptLoginPassword(keys: AuthKeys, base64: string): string | null {
  try {
    const plain = crypto.privateDecrypt(
      { key: keys.rsaPrivateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(base64, 'base64'),
    );
    return plain.toString('utf8');
  } catch {
    return null;
  }
}

/** Encrypt as the web app does (used by tests and API clients written in Node). */
export function encryptLoginPassword(publicKeyPem: string, plain: string): string {
  return crypto
    .publicEncrypt({ key: publicKeyPem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain, 'utf8'))
    .toString('base64');
}
