/**
 * The cap on listed parameterErrors (error-list.ts) through parseRequest: the first 50 distinct
 * faults in the order found, then one `(body)` entry counting the rest, whatever produced them
 * (unknown names, the decoder's faults, format errors).
 */
import { describe, expect, it } from 'vitest';
import { capErrors, ErrorList, MAX_LISTED_PARAMETER_ERRORS } from './error-list';
import { parseRequest } from './requests';

const VALID = 'amount=92.00&currency=EUR&paymentType=DB';
const errorsOf = (body: string) => {
  const parsed = parseRequest('checkout', body);
  if (parsed.ok) throw new Error('accepted');
  return parsed.errors;
};

describe('parameterErrors are capped', () => {
  it('lists 50 unknown names and counts the other 1,950', () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `x${i}`);
    const errors = errorsOf(`${VALID}&${names.map((n) => `${n}=1`).join('&')}`);
    expect(errors).toHaveLength(MAX_LISTED_PARAMETER_ERRORS + 1);
    expect(errors.slice(0, 50).map((e) => e.name)).toEqual(names.slice(0, 50));
    expect(errors[50]).toEqual({
      name: '(body)',
      value: null,
      message: 'has 1950 more parameter errors, not listed',
    });
  });

  it("caps the decoder's faults too, and counts them with the validator's", () => {
    const malformed = Array.from({ length: 60 }, (_, i) => `a${i}[=1`).join('&');
    const unknown = Array.from({ length: 10 }, (_, i) => `y${i}=1`).join('&');
    const errors = errorsOf(`${VALID}&${malformed}&${unknown}`);
    expect(errors).toHaveLength(51);
    expect(errors[0]).toMatchObject({ name: 'a0[', message: 'is not a well-formed parameter name' });
    expect(errors[50]!.message).toBe('has 20 more parameter errors, not listed');
  });

  it('lists everything under the cap, as before', () => {
    const errors = errorsOf(
      `${VALID}&amount=1.5&${Array.from({ length: 49 }, (_, i) => `z${i}=1`).join('&')}`,
    );
    expect(errors.length).toBeLessThanOrEqual(50);
    expect(errors.some((e) => e.name === '(body)')).toBe(false);
  });

  it('masks only what it lists, keeps the first fault of a name, and capping again keeps the count', () => {
    const list = new ErrorList(2);
    let masked = 0;
    const value = () => {
      masked++;
      return '***';
    };
    for (const name of ['a', 'a', 'b', 'c', 'd', 'c']) list.add(name, value, 'is wrong');
    expect(masked).toBe(2);
    const capped = list.errors();
    expect(capped.map((e) => e.name)).toEqual(['a', 'b', '(body)']);
    expect(capped[2]!.message).toBe('has 2 more parameter errors, not listed');
    expect(capErrors(capped, 2)).toEqual(capped);
    expect(capErrors(capped, 1).at(-1)!.message).toBe('has 3 more parameter errors, not listed');
  });
});
