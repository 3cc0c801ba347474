/**
 * Luhn (ISO/IEC 7812-1 mod 10) check.
 *
 * Works on a string of ASCII digits only: an empty string or any non-digit character makes it
 * return false. Runs in a single pass without allocating.
 */
export function luhnValid(digits: string): boolean {
  const n = digits.length;
  if (n === 0) return false;
  let sum = 0;
  let double = false;
  for (let i = n - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * The check digit that makes `payload + digit` pass {@link luhnValid}, or undefined when the
 * payload is not a string of digits. An empty payload yields '0'.
 */
export function luhnCheckDigit(payload: string): string | undefined {
  let sum = 0;
  // The check digit sits at the right, so the payload's last digit is the first to be doubled.
  let double = true;
  for (let i = payload.length - 1; i >= 0; i--) {
    let d = payload.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}
