import crypto from 'node:crypto';

// The native argon2 module is loaded with the first hash or check (a login, a new password), not at start: a
// server restarted under load answers its lists before anyone logs in, and idle it holds less (issue 27).
const argon2 = () => import('@node-rs/argon2');

// Argon2id (algorithm 2) with OWASP's minimum memory/time cost; ~50 ms a hash on this machine.
const ARGON2ID = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Hash a password with argon2id. */
export async function hashPassword(plain: string): Promise<string> {
  return (await argon2()).hash(plain, ARGON2ID);
}

/** Check a password against a stored argon2 hash. */
export async function verifyPassword(storedHash: string, plain: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(storedHash, plain);
  } catch {
    return false;
  }
}

// A hash of a random password, used to spend the same time when the user does not exist.
let dummyHash: Promise<string> | undefined;
/** Verify against a dummy hash so that unknown users take as long as wrong passwords. */
export async function spendVerifyTime(plain: string): Promise<void> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, plain);
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** A random initial password for a new user: 12 characters, letters and digits without look-alikes. */
export function generatePassword(length = 12): string {
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[bytes[i] % PASSWORD_ALPHABET.length];
  // make sure there is at least one digit and one letter
  if (!/\d/.test(out)) out = `${out.slice(0, -1)}7`;
  if (!/[A-Za-z]/.test(out)) out = `k${out.slice(1)}`;
  return out;
}
