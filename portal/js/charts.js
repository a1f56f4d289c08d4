// Plain SVG charts, drawn from numbers the API returned. Each comes with its data as a table, so
// a screen-reader or keyboard user gets the same information as the picture.
import { h, svg, table } from './dom.js';

/** The width a chart is first drawn at, before its place on the page is known. */
const FIRST_WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 16, right: 12, bottom: 40, left: 48 };
/** A label's room, in pixels, per character of the longest label, as the .tick font draws it. */
const LABEL_CHAR_PX = 8;

let charts = 0;

/**
 * The picture is drawn at the width it is shown (redrawn when that changes), one SVG unit to one
 * pixel, so its labels keep the size of the .tick font on a phone as on a laptop; a narrow chart
 * labels every second or third bar rather than shrinking the text.
 */
const drawn = new WeakMap();
const resizing = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const width = Math.floor(target.querySelector('.chart-svg').getBoundingClientRect().width);
    if (width > 0 && width !== drawn.get(target).width) drawn.get(target).draw(width);
  }
});

/**
 * Grouped bars per label. `series`: `[{name, values, className}]`, one value per label. `reference`: a dashed level line
 * (`{value, name}`), e.g. what a uniform distribution would give.
 */
export function chart({ title, description, labels, series, reference }) {
  const id = `chart-${++charts}`;
  const values = series.flatMap((s) => s.values);
  const { top, ticks } = axis(Math.max(1, reference?.value ?? 0, ...values), values.every(Number.isInteger));
  const picture = svg('svg', {
    role: 'img',
    'aria-labelledby': `${id}-title`,
    'aria-describedby': `${id}-desc`,
    class: 'chart-svg',
  });
  const draw = (width) => {
    drawn.set(figure, { width, draw });
    const plotWidth = width - MARGIN.left - MARGIN.right;
    const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
    const y = (value) => MARGIN.top + plotHeight - (value / top) * plotHeight;
    const step = plotWidth / Math.max(1, labels.length);
    const x = (index) => MARGIN.left + step * index + step / 2;
    const labelWidth = LABEL_CHAR_PX * Math.max(...labels.map((label) => label.length)) + 8;
    const every = Math.ceil(labelWidth / step);
    picture.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    picture.replaceChildren(
      svg('title', { id: `${id}-title` }, title),
      svg('desc', { id: `${id}-desc` }, description),
      ...ticks.flatMap((tick) => [
        svg('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(tick), y2: y(tick), class: 'grid' }),
        svg('text', { x: MARGIN.left - 6, y: y(tick) + 4, class: 'tick', 'text-anchor': 'end' }, formatTick(tick)),
      ]),
      ...labels
        .map(
          (label, i) =>
            i % every === 0 &&
            svg('text', { x: x(i), y: HEIGHT - MARGIN.bottom + 16, class: 'tick', 'text-anchor': 'middle' }, label),
        )
        .filter(Boolean),
      ...bars(series, x, y, step).flat(),
      ...(reference
        ? [
            svg('line', {
              x1: MARGIN.left,
              x2: width - MARGIN.right,
              y1: y(reference.value),
              y2: y(reference.value),
              class: 'reference',
            }),
          ]
        : []),
    );
  };
  const legend = h(
    'ul',
    { class: 'legend' },
    [...series, ...(reference ? [{ name: reference.name, className: 'reference' }] : [])].map((s) =>
      h(
        'li',
        {},
        svg(
          'svg',
          { viewBox: '0 0 14 14', class: 'swatch', 'aria-hidden': 'true' },
          svg('rect', { width: 14, height: 14, class: s.className }),
        ),
        s.name,
      ),
    ),
  );
  const columns = [
    { label: 'Label', value: (i) => labels[i] },
    ...series.map((s) => ({ label: s.name, value: (i) => s.values[i], numeric: true })),
  ];
  if (reference) columns.push({ label: reference.name, value: () => round(reference.value), numeric: true });
  const figure = h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, title),
    picture,
    legend,
    h(
      'details',
      {},
      h('summary', {}, `${title}: the numbers`),
      table({ caption: title, columns, rows: labels.map((_, i) => i) }),
    ),
  );
  draw(FIRST_WIDTH);
  resizing.observe(figure);
  return figure;
}

function bars(series, x, y, step) {
  const width = (step * 0.8) / series.length;
  return series.map((s, n) =>
    s.values.map((value, i) =>
      svg(
        'rect',
        {
          x: x(i) - step * 0.4 + n * width,
          y: y(value),
          width: Math.max(1, width - 1),
          height: y(0) - y(value),
          class: s.className,
        },
        svg('title', {}, `${s.name}: ${value}`),
      ),
    ),
  );
}

/** 1, 2 or 5 times a power of ten, at or above `value`: round numbers on the axis. */
function niceCeiling(value) {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= value);
}

/**
 * At most five round ticks from 0 up to the first at or above `max`; whole numbers only when the
 * bars are `counts` (half a void is no tick to read a count against).
 */
function axis(max, counts) {
  const rough = niceCeiling(max / 4);
  const step = counts ? Math.max(1, rough) : rough;
  const steps = Math.ceil(max / step);
  return { top: steps * step, ticks: Array.from({ length: steps + 1 }, (_, i) => round(i * step)) };
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
