/**
 * A chart with its text alternative: the drawing (uPlot, draw.ts, imported on first use) is
 * hidden from assistive technology, and the same figures follow as a table, named like the
 * chart, which screen readers read and anyone can open. The chart is drawn again when its width
 * or the system's colour scheme changes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChartSpec } from './spec';

export function Chart({
  title,
  spec,
  table,
}: {
  title: string;
  spec: ChartSpec;
  /** The figures as a table (DataTable), the chart's alternative. */
  table: ComponentChildren;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const el = host.current;
    if (el === null) return;
    let destroy: (() => void) | undefined;
    let current = true;
    const redraw = () =>
      void import('./draw').then(
        ({ draw }) => {
          if (!current) return;
          destroy?.();
          destroy = draw(el, spec);
        },
        () => current && setFailed(true),
      );
    redraw();
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    dark.addEventListener('change', redraw);
    let width = el.clientWidth;
    const resized = new ResizeObserver(() => {
      if (Math.abs(el.clientWidth - width) < 8) return;
      width = el.clientWidth;
      redraw();
    });
    resized.observe(el);
    return () => {
      current = false;
      dark.removeEventListener('change', redraw);
      resized.disconnect();
      destroy?.();
    };
  }, [spec]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <ul class="chart-key" aria-hidden="true">
        {spec.series.map((s) => (
          <li key={s.label} class={`key-${s.colour.slice(2)}`}>
            {s.label}
          </li>
        ))}
      </ul>
      <div ref={host} class="chart-plot" aria-hidden="true" />
      {failed && <p class="muted">The chart could not be drawn; the table below has its figures.</p>}
      <details>
        <summary>{title} as a table</summary>
        {table}
      </details>
    </figure>
  );
}
