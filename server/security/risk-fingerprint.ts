/** The risk checks' keyed hashes of card numbers, e-mail addresses and IPs, made with the vault. */
import { createHmac } from 'node:crypto';
import type { Fingerprint } from '../../shared/engine/steps/risk-check';
import type { Vault } from './vault';

/**
 * The engine's `fingerprint` for the risk checks: a card's fingerprint is the vault's (HMAC-SHA-256 of
 * the PAN under its own derived key); e-mail addresses and IPs get an HMAC-SHA-256 under another key
 * derived from the data key ("risk-velocity-keys"), over `kind NUL value`, so the history holds no
 * plaintext and an e-mail hash never equals an IP's. Changing the data key starts the history afresh.
 */
export function riskFingerprint(vault: Pick<Vault, 'fingerprint' | 'subkey'>): Fingerprint {
  const key = vault.subkey('risk-velocity-keys');
  return (kind, value) =>
    kind === 'card'
      ? vault.fingerprint(value)
      : createHmac('sha256', key).update(`${kind}\u0000${value}`, 'utf8').digest('hex');
}
