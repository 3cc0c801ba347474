/**
 * What a password of the administration must be (PCI DSS v4 8.3.6 and NIST SP 800-63B 3.1.1.2):
 * 12 to 1,024 characters, not trivial (one character repeated or a few alternating, a run such as
 * `123456789012` or `abcdefghijkl`, forwards or backwards), not containing the username, and not
 * one of the most common passwords (common-passwords.ts). No composition rules beyond that:
 * length beats them, and they push people to `Password1234!`.
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../security/passwords';
import { COMMON_PASSWORDS } from './common-passwords';

const COMMON = new Set(COMMON_PASSWORDS);
/** Fewer different characters than this is a pattern, not a password (`abababababab`). */
const MIN_DISTINCT = 4;

/** Whether each character is the one after (or before) the last, digits wrapping 9→0. */
function isRun(text: string): boolean {
  const step = (a: string, b: string): number => {
    if (/\d/.test(a) && /\d/.test(b))
      return (Number(b) - Number(a) + 10) % 10 === 1 ? 1 : (Number(a) - Number(b) + 10) % 10 === 1 ? -1 : 0;
    return b.charCodeAt(0) - a.charCodeAt(0);
  };
  const first = step(text[0]!, text[1]!);
  if (first !== 1 && first !== -1) return false;
  for (let i = 2; i < text.length; i++) if (step(text[i - 1]!, text[i]!) !== first) return false;
  return true;
}

/** The password's fault, or undefined when it may be used. */
export function passwordProblem(password: unknown, username?: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (new Set(lower).size < MIN_DISTINCT || isRun(lower))
    return 'is too easy to guess: a repeated character or a run such as 123456789012';
  if (typeof username === 'string' && username.length >= 3 && lower.includes(username.toLowerCase()))
    return 'must not contain the username';
  if (COMMON.has(lower)) return 'is one of the most common passwords';
  return undefined;
}
