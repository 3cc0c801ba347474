/**
 * The engine's dependencies (EngineDeps, shared/engine/core/deps.ts) as the gateway runs them,
 * built once at start by the composition root (server/gateway.ts): both apps (test and live),
 * the scheduler and the pending-payments worker decide with this one object, so they share the
 * same store, clock, sealing, processors, wallet tokens and risk history, and a new dependency
 * of the engine is added here once.
 */
import type { EngineDeps } from '../shared/engine/core/deps';
import type { Clock, Processors } from '../shared/engine/core/ports';
import { riskFingerprint } from './security/risk-fingerprint';
import type { Vault } from './security/vault';
import { walletTokens } from './security/wallet-tokens';
import type { GatewayStore } from './storage';

export function gatewayEngine(parts: {
  readonly store: GatewayStore;
  readonly clock: Clock;
  readonly vault: Vault;
  readonly processors: Processors;
}) {
  const { store, clock, vault, processors } = parts;
  return {
    store,
    clock,
    seal: (plain: string) => vault.encrypt(plain),
    processors,
    // the apps issue the simulated wallets' tokens with it too (WalletTokenIssuer)
    wallets: walletTokens(vault.subkey('wallet-tokens')),
    fingerprint: riskFingerprint(vault),
    // velocity history: the store's risk_events
    riskHistory: store,
  } satisfies EngineDeps;
}

export type GatewayEngine = ReturnType<typeof gatewayEngine>;
