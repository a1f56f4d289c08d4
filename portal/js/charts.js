// Plain SVG charts, drawn from numbers the API returned. Each comes with its data as a table, so
// a screen-reader or keyboard user gets the same information as the picture.
import { h, svg, table } from './dom.js';

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 16, right: 12, bottom: 40, left: 48 };
const PLOT = { width: WIDTH - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom };

let charts = 0;

/**
 * Grouped bars per label. `series`: `[{name, values, className}]`, one value per label. `reference`: a dashed level line
 * (`{value, name}`), e.g. what a uniform distribution would give.
 */
export function chart({ title, description, labels, series, reference }) {
  const id = `chart-${++charts}`;
  const top = niceCeiling(Math.max(1, reference?.value ?? 0, ...series.flatMap((s) => s.values)));
  const y = (value) => MARGIN.top + PLOT.height - (value / top) * PLOT.height;
  const step = PLOT.width / Math.max(1, labels.length);
  const x = (index) => MARGIN.left + step * index + step / 2;
  const every = Math.ceil(labels.length / 12);

  const picture = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-desc`, class: 'chart-svg' },
    svg('title', { id: `${id}-title` }, title),
    svg('desc', { id: `${id}-desc` }, description),
    [0, 0.25, 0.5, 0.75, 1].map((f) => [
      svg('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(top * f), y2: y(top * f), class: 'grid' }),
      svg('text', { x: MARGIN.left - 6, y: y(top * f) + 4, class: 'tick', 'text-anchor': 'end' }, formatTick(top * f)),
    ]),
    labels.map((label, i) => i % every === 0 && svg('text', { x: x(i), y: HEIGHT - MARGIN.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, label)),
    bars(series, x, y, step),
    reference && svg('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(reference.value), y2: y(reference.value), class: 'reference' }),
  );
  const legend = h('ul', { class: 'legend' },
    [...series, ...(reference ? [{ name: reference.name, className: 'reference' }] : [])].map((s) =>
      h('li', {}, svg('svg', { viewBox: '0 0 14 14', class: 'swatch', 'aria-hidden': 'true' }, svg('rect', { width: 14, height: 14, class: s.className })), s.name)));
  const columns = [{ label: 'Label', value: (i) => labels[i] }, ...series.map((s) => ({ label: s.name, value: (i) => s.values[i], numeric: true }))];
  if (reference) columns.push({ label: reference.name, value: () => round(reference.value), numeric: true });
  return h('figure', { class: 'chart' },
    h('figcaption', {}, title),
    picture,
    legend,
    h('details', {}, h('summary', {}, `${title}: the numbers`), table({ caption: title, columns, rows: labels.map((_, i) => i) })));
}

function bars(series, x, y, step) {
  const width = (step * 0.8) / series.length;
  return series.map((s, n) =>
    s.values.map((value, i) =>
      svg('rect', { x: x(i) - step * 0.4 + n * width, y: y(value), width: Math.max(1, width - 1), height: y(0) - y(value), class: s.className },
        svg('title', {}, `${s.name}: ${value}`))));
}

/** 1, 2 or 5 times a power of ten, at or above `value`: round numbers on the axis. */
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= value);
}

const round = (value) => Math.round(value * 100) / 100;
const formatTick = (value) => (value >= 1000 ? `${round(value / 1000)}k` : String(round(value)));

const HOURS = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

/** Voids in each hour of the day, from a risk profile's `void_rates` or the void analytics' totals. */
export function voidsByHourChart(voidRates) {
  return chart({
    title: 'Voids by hour of day (UTC)',
    description: 'Voids in each hour of the day. Clusters around shift changes are a classic sign of void abuse.',
    labels: HOURS,
    series: [{ name: 'Voids', values: voidRates.voids_by_hour, className: 'series-void' }],
  });
}
