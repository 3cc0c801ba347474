/**
 * Who is signed in: the session's user (undefined while it is being read, null when signed out)
 * and the operations on it (sign in and out, password, TOTP). The CSRF token goes to api.ts.
 */
import { computed, signal } from '@preact/signals';
import { ApiError, del, get, onUnauthorised, post, setCsrfToken } from '../api';
import { navigate } from '../router';
import type { User } from '../types';

export const user = signal<User | null | undefined>(undefined);
/** Why the session ended without the user signing out (expiry), for the sign-in page. */
export const sessionNotice = signal<string | undefined>(undefined);
/** The gateway requires a second factor and this user has none: nothing else until it is set up. */
export const totpSetupRequired = signal(false);

export const isOperator = computed(() => user.value?.role === 'operator');
/** May change things (not a merchant-viewer): the back office's actions, tokens, webhooks, users. */
export const canChange = computed(() => user.value != null && user.value.role !== 'merchant-viewer');

interface SessionAnswer {
  readonly user: User;
  readonly csrfToken: string;
  readonly totpSetupRequired?: boolean;
}

function signedIn(answer: SessionAnswer): void {
  setCsrfToken(answer.csrfToken);
  sessionNotice.value = undefined;
  totpSetupRequired.value = answer.totpSetupRequired === true;
  user.value = answer.user;
}

function signedOut(): void {
  setCsrfToken(undefined);
  totpSetupRequired.value = false;
  user.value = null;
}

onUnauthorised(() => {
  if (user.value) sessionNotice.value = 'Your session has ended. Sign in again.';
  signedOut();
});

export async function loadSession(): Promise<void> {
  try {
    signedIn(await get<SessionAnswer>('/session'));
  } catch {
    signedOut();
  }
}

export type SignInOutcome = 'signed-in' | 'totp-required';

export async function signIn(username: string, password: string, totp?: string): Promise<SignInOutcome> {
  try {
    signedIn(await post<SessionAnswer>('/session', { username, password, ...(totp ? { totp } : {}) }));
    return 'signed-in';
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && error.body.totpRequired === true)
      return 'totp-required';
    throw error;
  }
}

/** Signs out; the next user to sign in starts at the start page, not at this user's last one. */
export async function signOut(): Promise<void> {
  try {
    await del('/session');
  } finally {
    signedOut();
    navigate('/');
  }
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await post('/session/password', { currentPassword, newPassword });
}

/** A new secret: the current password and, to replace a confirmed authenticator, its current code. */
export async function startTotp(
  password: string,
  code?: string,
): Promise<{ secret: string; otpauthUrl: string }> {
  return post<{ secret: string; otpauthUrl: string }>('/session/totp', {
    password,
    ...(code ? { code } : {}),
  });
}

export async function confirmTotp(code: string): Promise<void> {
  const answer = await post<{ user: User }>('/session/totp/confirm', { code });
  totpSetupRequired.value = false;
  user.value = answer.user;
}
