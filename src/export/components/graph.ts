import type { Element, ElementContent } from 'hast';
import { s } from 'hastscript';
import type { Component, ComponentInput, PropValue } from '../render-context.ts';
import { boolProp, colorProp, el, intProp, isCssColor, stringProp } from './shared.ts';

/**
 * `<Graph type title xKey yKey height color stacked showLegend showGrid>{data}</Graph>`: a line,
 * bar, area, pie or donut chart drawn at build time as SVG from the literal data between the
 * tags (an array of rows, or `{ data, series: [{ key, label, color }] }`). No chart library runs in
 * the browser; a table of the same data is there for screen readers.
 */

type Row = Record<string, PropValue>;
interface Series {
  key: string;
  label: string;
  color: string;
}

const TYPES = new Set(['line', 'bar', 'area', 'pie', 'donut']);
/** Series colours after the first: the primary colour, then a palette readable in both themes. */
const PALETTE = [
  'var(--ds-primary)',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#8b5cf6',
  '#06b6d4',
  '#ec4899',
  '#84cc16',
];
const WIDTH = 640;
const PAD = { top: 12, right: 16, bottom: 32, left: 48 };
/** Rows and series a chart draws at most: more would not be readable, and costs the page. */
const MAX_ROWS = 500;
const MAX_SERIES = 12;

const isRow = (value: PropValue): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rows and series of the chart's data, or a reason it cannot be drawn. */
function chartData(
  input: ComponentInput,
  data: PropValue | undefined,
): { rows: Row[]; series: Series[] } | string {
  const given = isRow(data ?? null) && Array.isArray((data as Row).data) ? (data as Row) : undefined;
  const rows = (given ? (given.data as PropValue[]) : Array.isArray(data) ? data : undefined)?.filter(isRow);
  if (!rows || rows.length === 0) return 'its data is not a literal array of rows between the tags';
  if (rows.length > MAX_ROWS) return `it has ${rows.length} rows, more than the ${MAX_ROWS} a chart draws`;
  const color = colorProp(input, 'color');
  const written = Array.isArray(given?.series) ? (given.series as PropValue[]).filter(isRow) : [];
  const series: Series[] = written.length
    ? written.slice(0, MAX_SERIES).map((entry, index) => ({
        key: String(entry.key ?? ''),
        label: String(entry.label ?? entry.key ?? ''),
        color:
          typeof entry.color === 'string' && isCssColor(entry.color)
            ? entry.color
            : (PALETTE[index % PALETTE.length] as string),
      }))
    : [
        {
          key: stringProp(input, 'yKey') ?? numericKey(rows[0] as Row, stringProp(input, 'xKey')) ?? '',
          label: stringProp(input, 'yKey') ?? '',
          color: color ?? (PALETTE[0] as string),
        },
      ];
  if (series.some((entry) => !entry.key)) return 'no yKey or series names the values to draw';
  return { rows, series };
}

const numericKey = (row: Row, not: string | undefined) =>
  Object.keys(row).find((key) => key !== not && typeof row[key] === 'number');

const numberOf = (value: PropValue | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const round = (value: number) => Math.round(value * 100) / 100;

/** Round steps for an axis up to `max`: 1, 2 or 5 times a power of ten, about five of them. */
function ticks(max: number): number[] {
  if (max <= 0) return [0];
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const result: number[] = [];
  for (let value = 0; ; value += step) {
    result.push(round(value));
    if (value >= max) return result;
  }
}

function axisChart(
  type: string,
  rows: Row[],
  series: Series[],
  options: { xKey?: string; height: number; stacked: boolean; grid: boolean },
): Element {
  const { height } = options;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = height - PAD.top - PAD.bottom;
  const totals = rows.map((row) =>
    series.reduce((sum, entry) => sum + Math.max(0, numberOf(row[entry.key])), 0),
  );
  const max = options.stacked
    ? Math.max(...totals)
    : Math.max(...rows.flatMap((row) => series.map((entry) => numberOf(row[entry.key]))));
  const scale = ticks(max);
  const top = scale.at(-1) || 1;
  const y = (value: number) => round(PAD.top + plotHeight - (value / top) * plotHeight);
  const band = plotWidth / rows.length;
  const x = (index: number) => round(PAD.left + band * index + band / 2);
  const parts: Element[] = [];
  for (const value of scale) {
    if (options.grid)
      parts.push(
        s('line', {
          x1: PAD.left,
          x2: WIDTH - PAD.right,
          y1: y(value),
          y2: y(value),
          class: 'ds-graph-grid',
        }),
      );
    parts.push(
      s(
        'text',
        { x: PAD.left - 6, y: y(value) + 4, class: 'ds-graph-tick', 'text-anchor': 'end' },
        String(value),
      ),
    );
  }
  rows.forEach((row, index) => {
    const label = options.xKey ? String(row[options.xKey] ?? '') : String(index + 1);
    parts.push(
      s('text', { x: x(index), y: height - 10, class: 'ds-graph-tick', 'text-anchor': 'middle' }, label),
    );
  });
  if (type === 'bar') {
    const barWidth = (band * 0.7) / (options.stacked ? 1 : series.length);
    rows.forEach((row, index) => {
      let base = 0;
      series.forEach((entry, position) => {
        const value = Math.max(0, numberOf(row[entry.key]));
        const left = x(index) - (band * 0.7) / 2 + (options.stacked ? 0 : position * barWidth);
        const from = options.stacked ? base : 0;
        parts.push(
          s('rect', {
            x: round(left),
            y: y(from + value),
            width: round(barWidth),
            height: round(y(from) - y(from + value)),
            fill: entry.color,
          }),
        );
        base += value;
      });
    });
  } else {
    const bases = rows.map(() => 0);
    for (const entry of series) {
      const points = rows.map((row, index) => {
        const value = numberOf(row[entry.key]) + (options.stacked ? (bases[index] as number) : 0);
        return [x(index), y(value)] as const;
      });
      const floor = rows.map(
        (_, index) => [x(index), y(options.stacked ? (bases[index] as number) : 0)] as const,
      );
      const line = points.map(([px, py]) => `${px},${py}`).join(' ');
      if (type === 'area') {
        const area = [...points, ...floor.reverse()].map(([px, py]) => `${px},${py}`).join(' ');
        parts.push(s('polygon', { points: area, fill: entry.color, 'fill-opacity': 0.25 }));
      }
      parts.push(s('polyline', { points: line, fill: 'none', stroke: entry.color, 'stroke-width': 2 }));
      if (options.stacked)
        rows.forEach((row, index) => {
          bases[index] = (bases[index] as number) + numberOf(row[entry.key]);
        });
    }
  }
  return s('svg', { viewBox: `0 0 ${WIDTH} ${height}`, class: 'ds-graph-svg', 'aria-hidden': 'true' }, parts);
}

function pieChart(
  type: string,
  rows: Row[],
  series: Series,
  options: { xKey?: string; height: number },
): { svg: Element; legend: Series[] } {
  const size = options.height;
  const center = size / 2;
  const radius = center - 8;
  const total = rows.reduce((sum, row) => sum + Math.max(0, numberOf(row[series.key])), 0) || 1;
  let angle = -Math.PI / 2;
  const legend: Series[] = [];
  const slices = rows.map((row, index) => {
    const share = Math.max(0, numberOf(row[series.key])) / total;
    const color = PALETTE[index % PALETTE.length] as string;
    legend.push({
      key: String(index),
      label: options.xKey ? String(row[options.xKey] ?? '') : String(index + 1),
      color,
    });
    const start = angle;
    angle += share * Math.PI * 2;
    if (share >= 0.9999) return s('circle', { cx: center, cy: center, r: radius, fill: color });
    const point = (a: number) =>
      `${round(center + radius * Math.cos(a))},${round(center + radius * Math.sin(a))}`;
    return s('path', {
      d: `M${center},${center} L${point(start)} A${radius},${radius} 0 ${share > 0.5 ? 1 : 0} 1 ${point(angle)} Z`,
      fill: color,
    });
  });
  if (type === 'donut')
    slices.push(s('circle', { cx: center, cy: center, r: round(radius * 0.55), class: 'ds-graph-hole' }));
  return {
    svg: s(
      'svg',
      { viewBox: `0 0 ${size} ${size}`, class: 'ds-graph-svg ds-graph-round', 'aria-hidden': 'true' },
      slices,
    ),
    legend,
  };
}

/** The data as a table for screen readers (and anyone reading without the picture). */
function dataTable(rows: Row[], series: Series[], xKey: string | undefined): Element {
  return el('table', { className: ['ds-sr-only'] }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        [...(xKey ? [xKey] : []), ...series.map((entry) => entry.label || entry.key)].map((name) =>
          el('th', {}, [{ type: 'text', value: name }]),
        ),
      ),
    ]),
    el(
      'tbody',
      {},
      rows.map((row) =>
        el(
          'tr',
          {},
          [...(xKey ? [xKey] : []), ...series.map((entry) => entry.key)].map((key) =>
            el('td', {}, [{ type: 'text', value: String(row[key] ?? '') }]),
          ),
        ),
      ),
    ),
  ]);
}

const Graph: Component = (input) => {
  const type = stringProp(input, 'type') ?? '';
  if (!TYPES.has(type)) {
    input.ctx.warn(`<Graph> type="${type}" is not one of ${[...TYPES].join(', ')}: not drawn`);
    return [];
  }
  const data = chartData(input, input.childValue);
  if (typeof data === 'string') {
    input.ctx.warn(`<Graph> not drawn: ${data}`);
    return [];
  }
  const title = stringProp(input, 'title');
  const xKey = stringProp(input, 'xKey');
  const height = intProp(input, 'height', { min: 80, max: 1200, fallback: 300 });
  const circular = type === 'pie' || type === 'donut';
  const drawn = circular
    ? pieChart(type, data.rows, data.series[0] as Series, { xKey, height })
    : {
        svg: axisChart(type, data.rows, data.series, {
          xKey,
          height,
          stacked: boolProp(input, 'stacked'),
          grid: boolProp(input, 'showGrid', true),
        }),
        legend: data.series,
      };
  const legend: ElementContent[] =
    boolProp(input, 'showLegend', true) && (circular || data.series.length > 1 || data.series[0]?.label)
      ? [
          el(
            'ul',
            { className: ['ds-graph-legend'], ariaHidden: 'true' },
            drawn.legend.map((entry) =>
              el('li', {}, [
                el('span', { className: ['ds-graph-swatch'], style: `background:${entry.color}` }),
                { type: 'text', value: entry.label },
              ]),
            ),
          ),
        ]
      : [];
  return [
    el('figure', { className: ['ds-graph', `ds-graph-${type}`] }, [
      ...(title
        ? [el('figcaption', { className: ['ds-graph-title'] }, [{ type: 'text', value: title }])]
        : []),
      drawn.svg,
      ...legend,
      dataTable(data.rows, circular ? data.series.slice(0, 1) : data.series, xKey),
    ]),
  ];
};

export const graphComponents: Record<string, Component> = { Graph };
