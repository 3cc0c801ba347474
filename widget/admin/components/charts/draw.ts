/**
 * uPlot drawing one chart (loaded by Chart.tsx on first use, so the dashboard's first load does
 * not carry the library). Colours are the style sheet's variables, read when drawn: the dark
 * scheme's when the system is dark (Chart.tsx draws again when the scheme changes).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartSpec } from './spec';

const variable = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(name).trim();

export function draw(host: HTMLElement, spec: ChartSpec): () => void {
  const ink = variable(host, '--muted') || '#57606a';
  const grid = variable(host, '--line') || '#d0d7de';
  const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const width = Math.max(260, host.clientWidth);
  const plot = new uPlot(
    {
      width,
      height: 220,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { ...axis, values: (_u, ticks) => ticks.map((t) => `${String(t).padStart(2, '0')}h`) },
        { ...axis, size: 64, values: (_u, ticks) => ticks.map(spec.yTick ?? String) },
      ],
      series: [
        {},
        ...spec.series.map((s) => ({
          label: s.label,
          stroke: variable(host, s.colour) || '#0b5cad',
          width: 2,
          points: { show: true, size: 5 },
        })),
      ],
    },
    [[...spec.x], ...spec.series.map((s) => [...s.values])],
    host,
  );
  return () => plot.destroy();
}
