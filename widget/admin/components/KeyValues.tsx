/** An object's fields as a description list (nested groups flattened as `group.field`). */
import { formatDate } from '../format';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function flatten(value: unknown, prefix: string, out: [string, string][]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item !== 'object' || item === null))
      out.push([prefix, value.join(', ')]);
    else for (const [i, item] of value.entries()) flatten(item, `${prefix}[${i}]`, out);
  } else if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    const text = String(value);
    out.push([prefix, ISO.test(text) ? formatDate(text) : text]);
  }
}

export function KeyValues({ value, skip = [] }: { value: unknown; skip?: readonly string[] }) {
  const rows: [string, string][] = [];
  flatten(value, '', rows);
  const shown = rows.filter(([key]) => !skip.some((s) => key === s || key.startsWith(`${s}.`)));
  if (shown.length === 0) return <p class="muted">None.</p>;
  return <Facts rows={shown} />;
}

/** Named values as a description list, in the order given (`extra`: a further class). */
export function Facts({ rows, extra }: { rows: readonly (readonly [string, string])[]; extra?: string }) {
  return (
    <dl class={extra === undefined ? 'facts' : `facts ${extra}`}>
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
