import crypto from 'node:crypto';
import type { AlipaySdk } from 'alipay-sdk';
import { type AlipaySettingsInput, type AlipaySettingsView, PRODUCTION_GATEWAY, SANDBOX_GATEWAY } from '@app/shared/contracts/payment';
import { nowIso } from '../../../core/db.ts';
import type { TypedDb } from '../../../core/dbTypes.ts';
import { AppError } from '../../../core/errors.ts';
import { maskSecret, nextBoundSecret, nextSealedSecret, SECRET_MASK, type SecretBox, secretTargetChanged } from '../../../core/secrets.ts';

/**
 * The Alipay configuration (spec §3 "Payment config": appID, sysServiceProviderId, privateKey, publicKey,
 * returnUrl, notifyUrl; plus the gateway). Both keys are sealed and never returned: a read shows the mask, a
 * save with an empty or masked key keeps the stored one. `sysServiceProviderId` is the merchant's PID
 * (2088…), the `seller_id` every notify must name.
 */

/** The tables this module reads, typed in core/dbTypes.ts like every other. */
export type PaymentDb = TypedDb;

const CONFIG_ID = 1;
export { PRODUCTION_GATEWAY, SANDBOX_GATEWAY };

/** The configuration with both keys opened (PEM): only for signing and verifying, never for an answer or a log. */
export interface AlipaySettings {
  appId: string;
  sellerId: string;
  privateKey: string;
  alipayPublicKey: string;
  gateway: string;
  returnUrl: string;
  notifyUrl: string;
}

/** A key pasted as PEM, or as the bare Base64 body the open platform shows. */
function keyBytes(text: string): { pem: string } | { der: Buffer } {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return { pem: trimmed };
  return { der: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64') };
}

/** The application private key as PKCS#8 PEM (accepts PKCS#8 or PKCS#1, PEM or Base64); RSA of 2048 bits or more. */
export function normalisePrivateKey(text: string): string {
  try {
    const k = keyBytes(text);
    const key =
      'pem' in k
        ? crypto.createPrivateKey(k.pem)
        : (() => {
            try {
              return crypto.createPrivateKey({ key: k.der, format: 'der', type: 'pkcs8' });
            } catch {
              return crypto.createPrivateKey({ key: k.der, format: 'der', type: 'pkcs1' });
            }
          })();
    if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('not RSA2');
    return key.export({ type: 'pkcs8', format: 'pem' }).toString();
  } catch {
    throw new AppError('ALIPAY_PRIVATE_KEY_INVALID', {}, { privateKey: { code: 'FIELD_FORMAT', params: { label: '商户私钥' } } });
  }
}

/** Alipay's public key as SPKI PEM (PEM or Base64); RSA of 2048 bits or more. */
export function normalisePublicKey(text: string): string {
  try {
    const k = keyBytes(text);
    const key = 'pem' in k ? crypto.createPublicKey(k.pem) : crypto.createPublicKey({ key: k.der, format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error('not RSA2');
    return key.export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    throw new AppError('ALIPAY_PUBLIC_KEY_INVALID', {}, { publicKey: { code: 'FIELD_FORMAT', params: { label: '支付宝公钥' } } });
  }
}

function checkUrl(value: string | undefined, field: 'returnUrl' | 'notifyUrl'): string {
  const v = (value ?? '').trim();
  if (!v) throw new AppError('ALIPAY_URL_REQUIRED', {}, { [field]: { code: 'ALIPAY_URL_REQUIRED' } });
  let ok = false;
  try {
    const u = new URL(v);
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
  } catch {
    ok = false;
  }
  if (!ok) throw new AppError('ALIPAY_URL_FORMAT', {}, { [field]: { code: 'ALIPAY_URL_FORMAT' } });
  return v;
}

function checkGateway(value: string | undefined): string {
  const v = (value ?? '').trim();
  if (!v) return SANDBOX_GATEWAY;
  try {
    const u = new URL(v);
    if (u.protocol === 'https:' && u.hostname && !u.username && !u.password) return v;
  } catch {
    /* below */
  }
  throw new AppError('ALIPAY_GATEWAY_FORMAT', {}, { gateway: { code: 'ALIPAY_GATEWAY_FORMAT' } });
}

async function configRow(db: PaymentDb) {
  return db.selectFrom('tool_alipay_config').selectAll().where('id', '=', CONFIG_ID).executeTakeFirst();
}

/** GET /api/aliPay: the configuration with both keys masked. */
export async function readAlipayView(db: PaymentDb): Promise<AlipaySettingsView> {
  const row = await configRow(db);
  return {
    appID: row?.app_id ?? '',
    sysServiceProviderId: row?.seller_id ?? '',
    privateKey: maskSecret(row?.private_key_sealed),
    publicKey: maskSecret(row?.public_key_sealed),
    gateway: row?.gateway ?? SANDBOX_GATEWAY,
    returnUrl: row?.return_url ?? '',
    notifyUrl: row?.notify_url ?? '',
    updateTime: row?.update_time ?? null,
  };
}

function open(secrets: SecretBox, sealed: string): string {
  try {
    return secrets.open(sealed);
  } catch {
    throw new AppError('ALIPAY_SECRET_UNREADABLE', {});
  }
}

/** The stored configuration with its keys opened, or null when none is complete. */
export async function readAlipaySettings(db: PaymentDb, secrets: SecretBox): Promise<AlipaySettings | null> {
  const row = await configRow(db);
  if (!row?.app_id || !row.private_key_sealed || !row.public_key_sealed || !row.seller_id) return null;
  return {
    appId: row.app_id,
    sellerId: row.seller_id,
    privateKey: open(secrets, row.private_key_sealed),
    alipayPublicKey: open(secrets, row.public_key_sealed),
    gateway: row.gateway || SANDBOX_GATEWAY,
    returnUrl: row.return_url ?? '',
    notifyUrl: row.notify_url ?? '',
  };
}

/** PUT /api/aliPay: checks the spec's rules and that the keys are usable RSA2 keys, then stores them sealed. */
export async function saveAlipaySettings(db: PaymentDb, secrets: SecretBox, input: AlipaySettingsInput, username: string): Promise<void> {
  const appId = (input.appID ?? '').trim();
  if (!appId) throw new AppError('ALIPAY_APP_ID_REQUIRED', {}, { appID: { code: 'ALIPAY_APP_ID_REQUIRED' } });
  if (!/^\d{16}$/.test(appId)) throw new AppError('ALIPAY_APP_ID_FORMAT', {}, { appID: { code: 'ALIPAY_APP_ID_FORMAT' } });
  const sellerId = (input.sysServiceProviderId ?? '').trim();
  if (!sellerId) throw new AppError('ALIPAY_SELLER_REQUIRED', {}, { sysServiceProviderId: { code: 'ALIPAY_SELLER_REQUIRED' } });
  if (!/^2088\d{12}$/.test(sellerId)) throw new AppError('ALIPAY_SELLER_FORMAT', {}, { sysServiceProviderId: { code: 'ALIPAY_SELLER_FORMAT' } });
  const stored = await configRow(db);

  // A new key is checked and normalised before sealing; an empty or masked one keeps the stored key.
  const privateInput = input.privateKey?.trim();
  const newPrivate = privateInput && privateInput !== SECRET_MASK ? normalisePrivateKey(privateInput) : undefined;
  const publicInput = input.publicKey?.trim();
  const newPublic = publicInput && publicInput !== SECRET_MASK ? normalisePublicKey(publicInput) : undefined;
  // the stored private key signs for the app it was given with: another app ID needs it pasted again
  const storedPrivate = stored ? { sealed: stored.private_key_sealed, target: { appID: stored.app_id ?? '' } } : undefined;
  const privateSealed = nextBoundSecret(secrets, storedPrivate, newPrivate, { appID: appId }, (changed) => secretTargetChanged('ALIPAY_TARGET_CHANGED', 'privateKey', changed));
  if (!privateSealed) throw new AppError('ALIPAY_PRIVATE_KEY_REQUIRED', {}, { privateKey: { code: 'ALIPAY_PRIVATE_KEY_REQUIRED' } });
  const publicSealed = nextSealedSecret(secrets, stored?.public_key_sealed, newPublic);
  if (!publicSealed) throw new AppError('ALIPAY_PUBLIC_KEY_REQUIRED', {}, { publicKey: { code: 'ALIPAY_PUBLIC_KEY_REQUIRED' } });

  // The most common mistake: the application's own public key pasted where Alipay's belongs.
  const privatePem = newPrivate ?? open(secrets, privateSealed);
  const publicPem = newPublic ?? open(secrets, publicSealed);
  const ownPublic = crypto.createPublicKey(privatePem).export({ type: 'spki', format: 'pem' }).toString();
  if (ownPublic === publicPem) throw new AppError('ALIPAY_KEYS_SWAPPED', {}, { publicKey: { code: 'ALIPAY_KEYS_SWAPPED_FIELD' } });

  const values = {
    app_id: appId,
    seller_id: sellerId,
    private_key_sealed: privateSealed,
    public_key_sealed: publicSealed,
    gateway: checkGateway(input.gateway),
    return_url: checkUrl(input.returnUrl, 'returnUrl'),
    notify_url: checkUrl(input.notifyUrl, 'notifyUrl'),
    update_by: username,
    update_time: nowIso(),
  };
  if (stored) await db.updateTable('tool_alipay_config').set(values).where('id', '=', CONFIG_ID).execute();
  else await db.insertInto('tool_alipay_config').values({ id: CONFIG_ID, ...values, create_time: values.update_time }).execute();
}

/**
 * The SDK for signing page-pay requests and verifying notifies with these settings (no network use). The SDK is
 * loaded on first use: it is the largest package the server has (~9 MB of heap), and most installations never pay.
 */
export async function alipayClient(s: AlipaySettings): Promise<AlipaySdk> {
  const { AlipaySdk } = await import('alipay-sdk');
  return new AlipaySdk({ appId: s.appId, privateKey: s.privateKey, alipayPublicKey: s.alipayPublicKey, gateway: s.gateway, keyType: 'PKCS8', signType: 'RSA2' });
}
