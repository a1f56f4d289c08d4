import { call, problemOf, session, withQuery } from '../api.js';
import {
  copyable,
  field,
  formValues,
  h,
  load,
  notice,
  pageHeading,
  region,
  select,
  show,
  table,
  words,
} from '../dom.js';

// The value sets of the interface spec's JurisdictionRule (src/rules/jurisdiction-rule.ts checks them).
const ROUNDING_MODES = [
  'swedish_rounding',
  'mandatory_round_down',
  'mandatory_round_up',
  'symmetrical_rounding',
  'nearest_nickel',
  'nearest_cent',
  'nearest_dime',
  'none',
];
const ENFORCEMENTS = ['mandatory', 'permissive', 'voluntary', 'none'];
const STATUSES = ['enacted', 'pending', 'proposed', 'failed', 'no_legislation'];

export const jurisdictionsPage = {
  path: 'jurisdictions',
  title: 'Jurisdiction rules',
  roles: ['admin', 'auditor'],
  render(main, params) {
    const filter = {
      status: params.get('status') ?? '',
      state: params.get('state') ?? '',
      text: params.get('text') ?? '',
    };
    const editor = h('div', { 'aria-live': 'polite' });
    const list = region('Jurisdiction rules');
    const reload = () => loadRules(list, filter, editor);

    const form = h(
      'form',
      {
        class: 'card filters',
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          location.hash = withQuery('#/jurisdictions', formValues(form));
        },
      },
      h(
        'div',
        { class: 'fields' },
        field('Status', select('status', [['', 'Any status'], ...STATUSES.map((s) => [s, s])], filter.status)),
        field(
          'State',
          h('input', { name: 'state', value: filter.state, maxlength: 2, size: 4, autocapitalize: 'characters' }),
          'Two letters, e.g. AZ.',
        ),
        field(
          'Contains',
          h('input', { name: 'text', value: filter.text, type: 'search' }),
          'Matches the lookup key, jurisdiction or legislation.',
        ),
      ),
      h('button', { type: 'submit' }, 'Filter'),
    );

    main.append(
      ...pageHeading(
        'Jurisdiction rules',
        'Every rule version the service knows: enacted, pending and proposed, from the seeds and from administrators.',
      ),
      form,
      editor,
      list,
    );
    reload();
  },
};

async function loadRules(container, filter, editor) {
  const query = { status: filter.status, state: filter.state.toUpperCase() };
  // The service says which records are stale (its own 90-day and session rule): those of the same filter that it lists as stale.
  const [body, stale] = await Promise.all([
    load(container, withQuery('/jurisdictions', query), 'rules'),
    call('GET', withQuery('/jurisdictions', { ...query, stale: 'true' })),
  ]);
  if (!body) return;
  const staleVersions = new Set(stale.ok ? stale.body.rules.map(versionOf) : []);
  const text = filter.text.toLowerCase();
  const rules = body.rules.filter(
    (rule) =>
      !text || [rule.lookup_key, rule.jurisdiction_id, rule.legislation].some((v) => v?.toLowerCase().includes(text)),
  );
  const columns = [
    { label: 'Lookup key', value: (r) => h('code', {}, r.lookup_key) },
    { label: 'Level', value: (r) => r.jurisdiction_level },
    { label: 'Type', value: (r) => r.rule_type },
    // Two facts to a cell where they read as one, so that the table stays a table at 1280 px.
    {
      label: 'Rounding and enforcement',
      value: (r) => [h('div', {}, words(r.rounding_mode)), h('div', { class: 'secondary-line' }, r.enforcement)],
    },
    { label: 'Status', value: (r) => badge(`status-${r.status}`, r.status) },
    {
      label: 'Confidence, last verified',
      value: (r) => [
        h('div', {}, badge(`confidence-${r.confidence}`, r.confidence)),
        h(
          'div',
          { class: 'secondary-line' },
          words(r.last_verified),
          staleVersions.has(versionOf(r)) && [' ', badge('stale', 'stale')],
        ),
      ],
    },
    { label: 'Legislation', value: (r) => r.legislation },
    { label: 'Effective', value: (r) => r.effective_date },
  ];
  if (session.role === 'admin') {
    const reload = () => loadRules(container, filter, editor);
    columns.push({
      label: 'Actions',
      value: (r) =>
        h(
          'button',
          {
            type: 'button',
            class: 'small secondary',
            'aria-label': `Edit rule ${r.lookup_key} ${r.rule_type} ${r.effective_date ?? ''}`,
            onclick: () => openEditor(editor, r, reload),
          },
          'Edit',
        ),
    });
  }
  show(
    container,
    h('p', {}, `${rules.length} of ${body.count} rules.`),
    h(
      'p',
      { class: 'hint' },
      'A sale under a rule of low confidence (not confirmed by official text) or a stale one (not verified for 90 days, or a bill past its session’s end) is marked WARN.',
    ),
    table({ caption: 'Jurisdiction rules', columns, rows: rules, empty: 'No rule matches.' }),
  );
}

/**
 * The whole rule goes back with PUT, as the API takes it; the same effective date replaces that
 * version, another date adds a version beside it.
 */
function openEditor(container, rule, reload) {
  const close = () => container.replaceChildren();
  const outcome = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      class: 'card editor',
      onsubmit: async (event) => {
        event.preventDefault();
        const edits = formValues(form);
        const body = { ...rule, ...edits };
        for (const name of ['legislation', 'effective_date', 'disclosure_text'])
          if (body[name] === '') body[name] = null;
        // The spec's two disclosure fields and the rule's disclosure say the same: keep the kind unless disclosure is switched on or off.
        const kind = body.disclosure_required
          ? rule.disclosure.kind === 'none'
            ? 'receipt'
            : rule.disclosure.kind
          : 'none';
        body.disclosure = { ...rule.disclosure, kind, text: body.disclosure_text };
        const path = `/admin/jurisdictions/${encodeURIComponent(rule.lookup_key)}`;
        const answer = await call('PUT', path, { body });
        if (!answer.ok) return show(outcome, notice('error', await problemOf('PUT', path, answer)));
        const saved = answer.body.rule;
        show(
          outcome,
          notice(
            'success',
            `${answer.status === 201 ? 'Added a version' : 'Replaced the version'} of ${saved.lookup_key} effective ${saved.effective_date ?? 'always'}: ${saved.rounding_mode}, ${saved.enforcement}, ${saved.status}. Audit entry ${answer.body.position}, hash `,
            copyable(answer.body.auditHash),
            '.',
          ),
        );
        reload();
      },
    },
    h('h2', { tabindex: '-1' }, `Edit ${rule.jurisdiction_id} (${rule.rule_type}, ${rule.scope})`),
    h(
      'div',
      { class: 'fields' },
      field('Rounding mode', select('rounding_mode', ROUNDING_MODES, rule.rounding_mode)),
      field('Enforcement', select('enforcement', ENFORCEMENTS, rule.enforcement)),
      field('Status', select('status', STATUSES, rule.status)),
      field('Legislation', h('input', { name: 'legislation', value: rule.legislation ?? '' })),
      field(
        'Effective date',
        h('input', { name: 'effective_date', type: 'date', value: rule.effective_date ?? '' }),
        'The same date replaces this version; another date adds a version.',
      ),
      field(
        'Disclosure required',
        h('input', { name: 'disclosure_required', type: 'checkbox', checked: rule.disclosure_required }),
      ),
      field(
        'Disclosure text',
        h('textarea', { name: 'disclosure_text', rows: 2, value: rule.disclosure_text ?? '' }),
        'Printed on receipts verbatim; empty for the default sentence.',
      ),
      field('Notes', h('textarea', { name: 'notes', rows: 2, value: rule.notes })),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save rule'),
      h('button', { type: 'button', class: 'secondary', onclick: close }, 'Close'),
    ),
    outcome,
  );
  container.replaceChildren(form);
  form.querySelector('h2').focus();
}

/** One version of a rule: its place, its series and its start. */
const versionOf = (rule) => [rule.lookup_key, rule.rule_type, rule.scope, rule.effective_date].join('|');

const badge = (kind, text) => h('span', { class: `badge ${kind}` }, text);
