/**
 * Stripe's form bodies, as its API takes them: `a[b][c]=v` nested objects, `a[0]=v` lists (the
 * official SDK's encoding, `qs` with brackets). Decoded into plain objects of strings.
 */

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

/** `payment_method_data[card][number]` → ['payment_method_data', 'card', 'number']. */
function pathOf(key: string): string[] {
  const open = key.indexOf('[');
  if (open < 0) return [key];
  const parts = [key.slice(0, open)];
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? '');
  return parts;
}

function put(target: FormObject | FormValue[], path: readonly string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const slot = target as Record<string, FormValue>;
  if (rest.length === 0) {
    slot[head] = value;
    return;
  }
  const listNext = /^[0-9]*$/.test(rest[0] ?? '');
  const existing = slot[head];
  const child =
    typeof existing === 'object' && existing !== null ? existing : ((listNext ? [] : {}) as FormValue);
  slot[head] = child;
  put(
    child as FormObject,
    rest[0] === '' ? [String((child as FormValue[]).length), ...rest.slice(1)] : rest,
    value,
  );
}

/** A form body (or query string) as nested objects and lists. */
export function decodeStripeForm(body: string): FormObject {
  const out: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) put(out, pathOf(key), value);
  return out;
}

/** A text field of a decoded form, at `path`. */
export function field(form: FormValue | undefined, ...path: string[]): string | undefined {
  let at: FormValue | undefined = form;
  for (const name of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, FormValue>)[name];
  }
  return typeof at === 'string' ? at : undefined;
}

/** A map field (`metadata[...]`) as a record of strings. */
export function mapField(form: FormObject, name: string): Record<string, string> {
  const value = form[name];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) if (typeof v === 'string') out[key] = v;
  return out;
}
