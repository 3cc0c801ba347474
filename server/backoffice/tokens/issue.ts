/**
 * A merchant's new access token, stored: what the CLI (`gateway token create`), the admin API
 * (routes/admin/tokens.ts) and the developer default's demo merchant each issue once their own
 * checks (which channels, which environment) have passed. Only the token's userId and a hash of
 * its secret are kept (server/security/tokens.ts); the token itself is returned, to be shown once.
 */
import { newId } from '../../../shared/engine/core/ids';
import type { AccessToken, Environment } from '../../../shared/engine/core/model';
import type { TokenStore } from '../../../shared/engine/core/ports';
import { newToken } from '../../security/tokens';

export interface IssuedToken {
  readonly token: AccessToken;
  /** What the merchant sends after `Bearer`. */
  readonly accessToken: string;
}

export async function issueToken(
  store: Pick<TokenStore, 'insertToken'>,
  input: {
    readonly merchantId: string;
    /** Empty: every channel of the environment. */
    readonly channelIds: readonly string[];
    readonly environment: Environment;
    readonly now: Date;
  },
): Promise<IssuedToken> {
  const fresh = newToken();
  const token: AccessToken = {
    id: newId(),
    merchantId: input.merchantId,
    userId: fresh.userId,
    secretHash: fresh.secretHash,
    channelIds: input.channelIds,
    environment: input.environment,
    revokedAt: null,
    createdAt: input.now,
  };
  await store.insertToken(token);
  return { token, accessToken: fresh.token };
}
