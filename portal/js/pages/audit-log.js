import { withQuery } from '../api.js';
import {
  anyValue,
  copyable,
  dateRangeFields,
  field,
  formValues,
  h,
  load,
  pageHeading,
  region,
  show,
  table,
  utc,
  words,
} from '../dom.js';

// The short names GET /admin/audit-logs takes for event_type (src/audit/list-audit-logs/event-type-filter.ts); a stored type such as TipAdjusted works too.
const EVENT_TYPES = [
  'transaction',
  'override',
  'void',
  'refund',
  'tip',
  'tip_adjustment',
  'tip_payout',
  'tip_pool',
  'tip_credit_check',
  'api_key',
  'merchant',
  'jurisdiction_rule',
  'checkpoint',
];
const FILTERS = ['event_type', 'user_id', 'start_date', 'end_date', 'limit'];

export const auditLogPage = {
  path: 'audit-log',
  title: 'Audit log',
  roles: ['auditor', 'admin'],
  /** Filters and the cursor live in the URL, so a page of the log can be bookmarked and shared. */
  render(main, params) {
    const filter = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? '']));
    const cursor = Number(params.get('cursor') ?? 0);
    const form = h(
      'form',
      {
        class: 'card filters',
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          location.hash = withQuery('#/audit-log', formValues(form));
        },
      },
      h(
        'div',
        { class: 'fields' },
        field(
          'Event type',
          h('input', { name: 'event_type', list: 'event-types', value: filter.event_type }),
          'A short name (transaction, void, api_key…) or a stored type.',
        ),
        h(
          'datalist',
          { id: 'event-types' },
          EVENT_TYPES.map((type) => h('option', { value: type })),
        ),
        field(
          'Key id (user_id)',
          h('input', { name: 'user_id', value: filter.user_id }),
          'The API key that caused the entries.',
        ),
        dateRangeFields(filter),
        field(
          'Per page',
          h('input', { name: 'limit', type: 'number', min: 1, max: 1000, value: filter.limit || '50' }),
          '1 to 1,000.',
        ),
      ),
      h('button', { type: 'submit' }, 'Show entries'),
    );
    const result = region('Audit log entries');
    main.append(
      ...pageHeading(
        'Audit log',
        'Every state change the service recorded, in chain order, with who caused it and the entry’s hash.',
      ),
      form,
      result,
    );
    loadEntries(result, filter, cursor);
  },
};

async function loadEntries(container, filter, cursor) {
  const path = withQuery('/admin/audit-logs', { ...filter, limit: filter.limit || 50, cursor });
  const body = await load(container, path, 'entries');
  if (!body) return;
  const { entries, next_cursor: next } = body;
  const go = (to) => (location.hash = withQuery('#/audit-log', { ...filter, cursor: to || undefined }));
  show(
    container,
    table({
      caption: cursor ? `Entries after position ${cursor}` : 'Entries from the start of the log',
      rows: entries,
      empty: 'No entry matches these filters.',
      columns: [
        { label: 'Position', value: (e) => e.position, numeric: true },
        { label: 'Recorded', value: (e) => utc(e.recorded_at) },
        {
          label: 'Event and stream',
          value: (e) => [
            e.event_type,
            h('br'),
            h('code', { class: 'secondary-line' }, words(e.stream_id), ` #${e.stream_revision}`),
          ],
        },
        { label: 'Merchant', value: (e) => e.merchant_id },
        { label: 'Actor', value: (e) => actor(e.actor) },
        { label: 'Hash', value: (e) => copyable(e.hash) },
        {
          label: 'Details',
          value: (e) =>
            h('details', {}, h('summary', {}, 'Show'), anyValue(e.details, `Details of entry ${e.position}`)),
        },
      ],
    }),
    h(
      'div',
      { class: 'pager', role: 'group', 'aria-label': 'Audit log pages' },
      h('button', { type: 'button', class: 'secondary', disabled: cursor === 0, onclick: () => go(0) }, 'First page'),
      h('span', {}, entries.length ? `Positions ${entries[0].position}–${entries.at(-1).position}` : 'No entries'),
      h(
        'button',
        { type: 'button', class: 'secondary', disabled: next === null || next === undefined, onclick: () => go(next) },
        'Next page',
      ),
    ),
  );
}

function actor({ key_id: keyId, role, employee } = {}) {
  if (!role && !keyId) return 'the service';
  return [
    role ?? 'key',
    keyId && [h('br'), copyable(keyId)],
    employee && [h('br'), `employee ${employee.name ? `${employee.name} (${employee.id})` : employee.id}`],
  ];
}
