/**
 * Luhn (ISO/IEC 7812-1 mod 10) check.
 *
 * Works on a string of ASCII digits only: an empty string or any non-digit character makes it
 * return false. Runs in a single pass without allocating.
 */
export function luhnValid(digits: string): boolean {
  if (digits.length === 0) return false;
  const sum = luhnSum(digits, false);
  return sum !== undefined && sum % 10 === 0;
}

/**
 * The check digit that makes `payload + digit` pass {@link luhnValid}, or undefined when the
 * payload is not a string of digits. An empty payload yields '0'.
 */
export function luhnCheckDigit(payload: string): string | undefined {
  // The check digit sits at the right, so the payload's last digit is the first to be doubled.
  const sum = luhnSum(payload, true);
  return sum === undefined ? undefined : String((10 - (sum % 10)) % 10);
}

/** The Luhn sum of the digits from the right, every second one doubled; undefined for a non-digit. */
function luhnSum(digits: string, doubleLast: boolean): number | undefined {
  let sum = 0;
  let double = doubleLast;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum;
}
