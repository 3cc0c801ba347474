/**
 * The dashboard's tables of records: a scrolling region (ScrollTable) named like the table, a
 * caption for screen readers, a header cell per column (`scope="col"`; amounts and counts
 * right-aligned), and the rows the caller gives.
 */
import type { ComponentChildren } from 'preact';
import { ScrollTable } from './ScrollTable';

/** A column's header; `number` right-aligns it over its figures. */
export type Column = string | { readonly label: string; readonly number: true };

export function DataTable({
  label,
  columns,
  children,
}: {
  label: string;
  /** `false` leaves a column out (say, the actions of a role that may not change anything). */
  columns: readonly (Column | false)[];
  children: ComponentChildren;
}) {
  return (
    <ScrollTable label={label}>
      <table>
        <caption class="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              column === false ? null : typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" class="number">
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollTable>
  );
}
