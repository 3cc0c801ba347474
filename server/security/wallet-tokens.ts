/**
 * The simulated wallets' payment tokens (decisions, Wallets: "a simulated wallet sheet issues an
 * encrypted token that only the gateway can decrypt"). AES-256-GCM under a key derived from the
 * data key; the header (version, wallet group, entityId, expiry) is bound in as additional
 * authenticated data, so a token opens only unchanged, for the wallet and channel it was issued
 * for, before it expires, and every refusal can say which of these it was:
 *
 *     <header, base64url JSON>.<iv, base64url>.<ciphertext, base64url>.<tag, base64url>
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { WalletPayload, WalletTokenRefusal, WalletTokens } from '../../shared/engine/core/ports';

/** How long an issued token may be used: a wallet sheet's answer is used at once. */
export const WALLET_TOKEN_TTL_MS = 60 * 60_000;

interface Header {
  readonly v: 1;
  readonly w: string;
  readonly m: string;
  readonly exp: number;
}

const b64 = (bytes: Buffer): string => bytes.toString('base64url');

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * A part's bytes, only when the text is exactly what `b64` writes for them: Node's decoder skips
 * characters it does not know, takes padding and ignores the spare bits of the last character, so
 * without this check changed texts would open as the token they were changed from.
 */
function unb64(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return b64(bytes) === text ? bytes : undefined;
}

function readHeader(text: string): Header | undefined {
  try {
    const h = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Header>;
    return h.v === 1 && typeof h.w === 'string' && typeof h.m === 'string' && typeof h.exp === 'number'
      ? (h as Header)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface WalletTokenIssuer extends WalletTokens {
  issue(wallet: string, entityId: string, payload: WalletPayload, now: Date): string;
}

export function walletTokens(key: Buffer): WalletTokenIssuer {
  if (key.length !== 32) throw new RangeError('wallet token key: 32 bytes');
  return {
    issue(wallet, entityId, payload, now) {
      const header = b64(
        Buffer.from(
          JSON.stringify({ v: 1, w: wallet, m: entityId, exp: now.getTime() + WALLET_TOKEN_TTL_MS }),
        ),
      );
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(header));
      const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
      return [header, b64(iv), b64(body), b64(cipher.getAuthTag())].join('.');
    },

    open(wallet, token, entityId, now) {
      const parts = token.split('.');
      const header = parts.length === 4 ? readHeader(parts[0]!) : undefined;
      if (header === undefined) return refuse('malformed');
      const [iv, body, tag] = [unb64(parts[1]!), unb64(parts[2]!), unb64(parts[3]!)];
      // A changed text, a shortened IV or tag: GCM would accept a tag of 4 bytes, which a forger
      // could guess, so only the full 16 bytes this issuer writes are taken.
      if (iv?.length !== IV_BYTES || body === undefined || tag?.length !== TAG_BYTES)
        return refuse('altered');
      let payload: WalletPayload;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(parts[0]!));
        decipher.setAuthTag(tag);
        const text = Buffer.concat([decipher.update(body), decipher.final()]);
        payload = JSON.parse(text.toString('utf8')) as WalletPayload;
      } catch {
        // A changed header, body or tag, or a token of another gateway.
        return refuse('altered');
      }
      // Authentic, so its header is what the wallet wrote.
      if (header.w !== wallet) return refuse('other-wallet');
      if (header.m !== entityId) return refuse('other-merchant');
      if (now.getTime() > header.exp) return refuse('expired');
      return payload;
    },
  };
}

const refuse = (refused: WalletTokenRefusal) => ({ refused });
