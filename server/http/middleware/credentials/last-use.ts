/**
 * When each access token was last used, for the administration's token list: recorded at most
 * once a minute per token (an UPDATE in the background, never awaited by the request), so a
 * merchant's thousands of requests a second cost one write a minute, not one each.
 */
import type { Clock } from '../../../../shared/engine/core/ports';

export const TOKEN_USE_RESOLUTION_MS = 60_000;
const MAX_TOKENS = 10_000;

export interface TokenUseDeps {
  readonly store: { recordTokenUse?(tokenId: string, at: Date): Promise<void> };
  readonly clock?: Clock;
  readonly logger?: { warn(message: string, fields?: Record<string, unknown>): void };
}

/** Returns what to call on each authenticated request (a no-op when the store keeps no last use). */
export function tokenUseRecorder(deps: TokenUseDeps): (tokenId: string) => void {
  const record = deps.store.recordTokenUse?.bind(deps.store);
  if (record === undefined) return () => {};
  const recorded = new Map<string, number>();
  return (tokenId) => {
    const now = deps.clock?.now() ?? new Date();
    const last = recorded.get(tokenId);
    if (last !== undefined && now.getTime() - last < TOKEN_USE_RESOLUTION_MS) return;
    if (recorded.size >= MAX_TOKENS) recorded.clear();
    recorded.set(tokenId, now.getTime());
    record(tokenId, now).catch((error: unknown) =>
      deps.logger?.warn('could not record a token’s last use', { tokenId, error: String(error) }),
    );
  };
}
