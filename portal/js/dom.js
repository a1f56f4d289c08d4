// Small DOM helpers: elements are built with properties and text nodes only, never from HTML
// strings, so no value the API returns can become markup.
import { call, problemOf } from './api.js';

/** `h('button', {type: 'button', onclick}, 'Save')`: `on*` functions become listeners, `class` the class, other props attributes. */
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

function build(element, props, children) {
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'value' || name === 'checked') element[name] = value;
    else element.setAttribute(name === 'className' ? 'class' : name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

let ids = 0;
/** A labelled form control: the label names the control, the hint is read after it. */
export function field(label, control, hint) {
  control.id ||= `field-${++ids}`;
  const hintElement = hint && h('span', { class: 'hint', id: `${control.id}-hint` }, hint);
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h(
    'div',
    { class: control.type === 'checkbox' ? 'field check' : 'field' },
    h('label', { for: control.id }, label),
    control,
    hintElement,
  );
}

/** `start_date` and `end_date` as the API takes them: whole days, UTC, both inclusive. */
export function dateRangeFields(values = {}) {
  return [
    field('From', h('input', { name: 'start_date', type: 'date', value: values.start_date }), 'Inclusive, UTC.'),
    field(
      'To',
      h('input', { name: 'end_date', type: 'date', value: values.end_date }),
      'Inclusive: the whole day, UTC.',
    ),
  ];
}

export function select(name, options, selected = '') {
  return h(
    'select',
    { name },
    options.map((option) => {
      const [value, text] = Array.isArray(option) ? option : [option, option];
      return h('option', { value, selected: value === selected }, text);
    }),
  );
}

/** `kind`: info, success, warning or error; errors are announced at once (role alert). */
export function notice(kind, ...content) {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}

/** The page's main heading, focused on arrival so keyboard and screen-reader users start there; then its introduction, if any. */
export function pageHeading(title, intro) {
  return [h('h1', { tabindex: '-1' }, title), ...(intro ? [h('p', { class: 'intro' }, intro)] : [])];
}

/** A region whose content is replaced as a whole: loading, then the result or the problem. */
export function region(label) {
  return h('section', { 'aria-label': label, 'aria-live': 'polite', class: 'region' });
}
export const show = (container, ...content) => container.replaceChildren(...content.flat().filter(Boolean));
const loading = (container, what) => show(container, h('p', { class: 'loading' }, `Loading ${what}…`));

/** GETs `path` into `container`: a loading line, then the answer's body, or undefined once the problem is shown there. */
export async function load(container, path, what) {
  loading(container, what);
  const answer = await call('GET', path);
  if (answer.ok) return answer.body;
  show(container, notice('error', await problemOf('GET', path, answer)));
}

/**
 * A table in a keyboard-focusable region. `columns`: `{label, value(row), numeric?}`; `value` returns
 * text or a node. Words never break inside: a table too wide for its place is drawn as a card per
 * row instead, each value beside its column's label (`stacked`), so nothing scrolls sideways or hides.
 */
export function table({ caption, columns, rows, empty = 'Nothing to show.' }) {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  const wrap = h(
    'div',
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : undefined }, c.label)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            {},
            columns.map((c) =>
              h(
                'td',
                { class: c.numeric ? 'num' : undefined },
                h('span', { class: 'cell-label' }, c.label),
                h('div', { class: 'value' }, display(c.value(row))),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  fitting.observe(wrap);
  return wrap;
}

/**
 * The width each table was last fitted to: a change of height alone (a row unfolding) needs no new
 * fit, unless what unfolded is wider than the table's place (a nested table of reasons).
 */
const fittedWidths = new WeakMap();
const fitting = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const fits = target.scrollWidth <= target.clientWidth + 1;
    if (fittedWidths.get(target) === target.clientWidth && (fits || target.classList.contains('stacked'))) continue;
    fittedWidths.set(target, target.clientWidth);
    target.classList.remove('stacked');
    if (target.scrollWidth > target.clientWidth + 1) target.classList.add('stacked');
  }
});

/** How a list answer was paged and how fresh it is: said once, in the footer, never among the data. */
const PAGING_FIELDS = ['limit', 'offset', 'total', 'as_of_position'];

export function pageFooter(body) {
  const parts = [
    body.total !== undefined && `${body.total.toLocaleString('en-US')} in all`,
    body.limit !== undefined &&
      `up to ${body.limit.toLocaleString('en-US')} a page, from row ${(body.offset ?? 0) + 1}`,
    body.as_of_position !== undefined && `current to audit log position ${body.as_of_position.toLocaleString('en-US')}`,
  ].filter(Boolean);
  return parts.length > 0 && h('footer', { class: 'page-meta' }, `${parts.join(' · ')}.`);
}

/**
 * What each statistic measures and what would flag it, by `parent.key` as the API names them; the
 * thresholds are those of src/rules/fraud-signals.ts.
 */
const EXPLANATIONS = {
  'round_up_bias.z':
    'How many standard deviations the round-ups sit above what honest rounding of the same sales gives. ROUND_UP_BIAS is flagged from 2, once 20 or more sales were rounded up or down.',
  'penny_endings.chi_square':
    'How far the penny endings stray from an even spread over 0 to 9 (Pearson’s chi-square). PENNY_ENDINGS_SKEWED is flagged above 21.67 (a 1% chance for honest prices) when the endings lean to those the rule rounds up.',
  'shift_change.z':
    'How many standard deviations the voids near a shift change sit above the share of the day those windows cover. VOIDS_AT_SHIFT_CHANGE is flagged from 3, and only with 3 or more such voids: a high z from one or two voids flags nothing.',
};

/**
 * What makes each merchant signal fire, by code, so a reader of a LOW profile flagged HIGH_VOID_RATE
 * knows what “high” is: the tiers of src/rules/fraud-signals.ts, as docs/fraud-scoring.md states them.
 */
const SIGNAL_THRESHOLDS = {
  ROUND_UP_BIAS:
    'Round-ups exceed honest rounding by a z-score of at least 2 (10 points), 3 (25) or 4 (40); needs 20 sales rounded up or down.',
  PENNY_ENDINGS_SKEWED:
    'The penny endings depart from an even spread with a chi-square of at least 21.67 (10 points) or 27.88 (20), leaning to the endings the rule rounds up; needs 50 cash sales.',
  EXPLICIT_MODE_GAINS:
    'An explicit rounding mode collected more than the rule’s own on at least 5% (15 points) or 25% (30 points) of the cash sales, at least 3 of them.',
  OVERRIDE_FREQUENCY: 'Overrides per sale are at least 5% (10 points) or 15% (20 points); needs 20 sales.',
  OVERRIDES_RAISE_CASH:
    'At least 3 overrides set the cash total above the calculation, and they outnumber those that set it below (15 points).',
  HIGH_VOID_RATE: 'Voids per sale are at least 5% (10 points) or 15% (20 points); needs 20 sales.',
  REPEATED_NORMALIZATION_FAILURES: 'At least 2 (10 points) or 5 (20 points) refunds failed the normalization check.',
  VOIDS_AT_SHIFT_CHANGE:
    'At least 3 voids near shift changes, a z-score of at least 3 above the share of the day those windows cover (15 points).',
  VOIDS_CONCENTRATED_ON_EMPLOYEE: 'One employee authorized at least 60% of the voids, at least 5 of them (10 points).',
};

/** A signal's code, what makes it fire in its tooltip (a list of merchants names signals without room to explain them). */
export const signalName = (code) => h('span', { title: SIGNAL_THRESHOLDS[code] }, words(code));

/** Any JSON value, readable: objects as term lists, arrays of objects as tables. For shapes the portal does not know in detail. */
export function anyValue(value, caption = 'Details', parent = '') {
  if (value === null || value === undefined) return '—';
  if (value instanceof Node) return value;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return value.length ? list(value) : '—';
    const keys = [...new Set(value.flatMap((item) => (item && typeof item === 'object' ? Object.keys(item) : [])))];
    const signals = value.some((item) => SIGNAL_THRESHOLDS[item?.code]);
    return table({
      caption,
      columns: [
        ...keys.map((key) => ({
          label: humanize(key),
          value: (row) => cell(key, row?.[key]),
          numeric: typeof value[0]?.[key] === 'number',
        })),
        ...(signals ? [{ label: 'Flagged when', value: (row) => SIGNAL_THRESHOLDS[row?.code] }] : []),
      ],
      rows: value,
    });
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([key]) => !PAGING_FIELDS.includes(key));
    if (entries.length === 0) return '—';
    return h(
      'dl',
      { class: 'facts' },
      entries.map(([key, item]) => {
        const explanation = EXPLANATIONS[`${parent}.${key}`];
        return h(
          'div',
          {},
          h('dt', {}, humanize(key)),
          h(
            'dd',
            {},
            anyValue(byName(key, item), humanize(key), key),
            explanation && h('p', { class: 'hint explanation' }, explanation),
          ),
        );
      }),
    );
  }
  return display(value);
}

/** Nested values inside a table cell stay compact: lists joined, objects as term lists, instants as the log reads them. */
function cell(key, value) {
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'))
    return value.length ? list(value) : '—';
  if (/_at$/.test(key) && typeof value === 'string') return utc(value);
  return value !== null && typeof value === 'object' ? anyValue(value, humanize(key), key) : byName(key, value);
}

/** Plain values, comma-separated. */
const list = (values) => values.flatMap((value, i) => (i === 0 ? [display(value)] : [', ', display(value)]));

/** The API's naming says what a number is: `*_cents` are shown in dollars, `*_rate` and `*_ratio` as percentages. */
function byName(key, value) {
  if (typeof value !== 'number') return value;
  if (/_cents$/.test(key)) return dollars(value);
  if (/(^|_)(rate|ratio)$/.test(key)) return `${Math.round(value * 1000) / 10}%`;
  return value;
}

/** An amount stays on one line: a line may otherwise end between its minus and its dollar sign. */
const dollars = (cents) =>
  h(
    'span',
    { class: 'money' },
    `${cents < 0 ? '−' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );

function display(value) {
  if (value instanceof Node || Array.isArray(value)) return value;
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number')
    return Number.isInteger(value)
      ? value.toLocaleString('en-US')
      : value.toLocaleString('en-US', { maximumFractionDigits: 4 });
  return words(String(value));
}

/** A date or an instant, as the API and the rule notes write them: drawn on one line (a <time>), never broken at its hyphens. */
const DATES = /(\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?)/;

/** A run of letters and digits longer than this, with nowhere to break, is a token (a hash, a key id), not a word. */
const LONGEST_WORD = 16;

/** Where words() lets a word wrap: in an address or path, and in any other word. */
const IN_ADDRESS = /(?<=[_/@?&=]|[.:,](?=\D))/;
const IN_NAME = /(?<=[_/@?&=]|[:,](?=\D))/;

/**
 * Text that may wrap only between words: at white space, and after the separators of names and
 * addresses (`symmetrical_|rounding`, `docs.example.org/|rules`), never inside a word. A token with
 * no place to break is shown whole-or-abbreviated by `copyable`.
 */
export function words(text) {
  const pieces = text.split(DATES);
  if (pieces.length > 1)
    return pieces.map((piece, i) => (i % 2 === 1 ? h('time', { datetime: piece }, piece) : piece && words(piece)));
  if (!/\s/.test(text) && text.split(/[-_/.:@?&=,]/).some((part) => part.length > LONGEST_WORD)) return copyable(text);
  // After _ / @ ? & =, and after : , unless a digit follows (12:30, 1,000 stay whole); a hyphen is a break already. After
  // a dot only inside an address or path (a word with a slash: `docs.example.org/rules`), judged word by word, as a
  // note may hold a path and a dotted name apart: `transaction.voided`, `disclosure.kind` and `N.J.S.A.` stay whole.
  const shown = [];
  for (const word of text.split(/(\s+)/)) {
    word.split(word.includes('/') ? IN_ADDRESS : IN_NAME).forEach((part, i) => {
      if (i > 0) shown.push(h('wbr'));
      if (typeof shown.at(-1) === 'string') shown[shown.length - 1] += part;
      else shown.push(part);
    });
  }
  return shown.length === 1 ? shown[0] : shown;
}

/** `voided_amount_cents` → `Voided amount ($)`: its value is shown in dollars. */
export const humanize = (key) =>
  String(key)
    .replace(/_cents$/, ' ($)')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** Times in UTC, as the log records them, so every reader sees the same. */
export function utc(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? String(iso)
    : h('time', { datetime: iso }, `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
}

/**
 * An id or hash too long to read whole in a table: shown as far as its box allows, cut with an ellipsis,
 * (`whole`: a key a reader compares by eye, shown whole wherever its place is wide enough),
 * the whole value in its tooltip, in the page's text (for find-in-page and screen readers), and
 * copied to the clipboard on click, Enter or Space.
 */
export function copyable(value, { whole = false } = {}) {
  if (!value) return '—';
  return h(
    'button',
    {
      type: 'button',
      class: whole ? 'copyable whole' : 'copyable',
      title: `${value} (copy)`,
      onclick: () => copy(value),
    },
    value,
  );
}

/** Puts the value on the clipboard and says so in the live region. */
export async function copy(value) {
  const said = document.getElementById('announcer');
  try {
    await navigator.clipboard.writeText(value);
    said.textContent = `Copied ${value}.`;
  } catch {
    // No clipboard access (plain http on another host): the value is in the tooltip and the page's text.
    said.textContent = 'The browser refused the clipboard; select the value in its tooltip instead.';
  }
}

export function riskBadge(level) {
  return level ? h('span', { class: `badge risk-${String(level).toLowerCase()}` }, level) : '—';
}

/** Previous and next buttons for an offset-paged list; `onPage(offset)`. */
export function pager({ offset, limit, count, onPage, label }) {
  return h(
    'div',
    { class: 'pager', role: 'group', 'aria-label': `${label} pages` },
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        disabled: offset === 0,
        onclick: () => onPage(Math.max(0, offset - limit)),
      },
      'Previous page',
    ),
    h('span', {}, count === 0 ? 'No rows' : `Rows ${offset + 1}–${offset + count}`),
    h(
      'button',
      { type: 'button', class: 'secondary', disabled: count < limit, onclick: () => onPage(offset + limit) },
      'Next page',
    ),
  );
}

/** A modal yes/no question; resolves true on confirm. Escape or Cancel resolves false. */
export function confirmDialog({ title, text, confirmLabel }) {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'confirm', 'aria-labelledby': 'confirm-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'confirm-title' }, title),
        h('p', {}, text),
        h(
          'div',
          { class: 'actions' },
          h('button', { value: 'confirm', class: 'danger' }, confirmLabel),
          h('button', { value: 'cancel', class: 'secondary', autofocus: true }, 'Cancel'),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** The form's named values, trimmed; checkboxes as booleans. */
export function formValues(form) {
  const values = {};
  for (const element of form.elements) {
    if (!element.name) continue;
    values[element.name] = element.type === 'checkbox' ? element.checked : element.value.trim();
  }
  return values;
}
