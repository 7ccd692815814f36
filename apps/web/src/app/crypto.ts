import type { loginPublicKey } from '@app/shared/contracts/auth';
import { SESSION_ROUTES, callRoute } from './contractClient';

/**
 * Login password encryption: RSA-OAEP with SHA-256 under the server's public key (SPKI PEM), base64.
 * WebCrypto when available (secure contexts); node-forge, loaded only then, when `crypto.subtle` is missing
 * (plain http on a LAN address).
 */

let publicKeyPem: Promise<string> | null = null;

/** The server's public key, fetched once per page load. */
export function fetchPublicKey(): Promise<string> {
  if (!publicKeyPem) {
    publicKeyPem = callRoute<typeof loginPublicKey>(SESSION_ROUTES.publicKey, {})
      .then((r) => r.publicKey)
      .catch((e) => {
        publicKeyPem = null;
        throw e;
      });
  }
  return publicKeyPem;
}

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function toBase64(bytes: ArrayBuffer): string {
  const arr = new Uint8Array(bytes);
  let bin = '';
  for (let i = 0; i < arr.length; i++) bin += String.fromCharCode(arr[i]);
  return btoa(bin);
}

/** Encrypt `plain` for the server: base64 RSA-OAEP-SHA256 ciphertext. */
export async function encryptPassword(plain: string, pem?: string): Promise<string> {
  const key = pem ?? (await fetchPublicKey());
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    try {
      const cryptoKey = await subtle.importKey('spki', pemToDer(key), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
      const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, cryptoKey, new TextEncoder().encode(plain));
      return toBase64(cipher);
    } catch {
      // some engines lack RSA-OAEP in WebCrypto: fall through to node-forge
    }
  }
  return encryptWithForge(plain, key);
}

/** The same encryption with node-forge (loaded only when needed). */
export async function encryptWithForge(plain: string, key: string): Promise<string> {
  const forge = (await import('node-forge')).default;
  const publicKey = forge.pki.publicKeyFromPem(key);
  const cipher = publicKey.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
}
