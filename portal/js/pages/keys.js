import { call, problemOf, withQuery } from '../api.js';
import {
  confirmDialog,
  copyable,
  field,
  formValues,
  h,
  load,
  notice,
  pageHeading,
  pager,
  region,
  select,
  show,
  table,
  utc,
} from '../dom.js';

const PAGE_SIZE = 100;

export const keysPage = {
  path: 'keys',
  title: 'API keys',
  roles: ['admin'],
  render(main, params) {
    const issued = h('div', { 'aria-live': 'polite' });
    const list = region('API keys');
    const load = (offset) => loadKeys(list, offset);

    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: async (event) => {
          event.preventDefault();
          const body = Object.fromEntries(Object.entries(formValues(form)).filter(([, value]) => value !== ''));
          const answer = await call('POST', '/admin/api-keys', { body });
          if (!answer.ok) return show(issued, notice('error', await problemOf('POST', '/admin/api-keys', answer)));
          show(
            issued,
            oneTimeKey(answer.body, () => issued.replaceChildren()),
          );
          issued.querySelector('input').focus();
          form.reset();
          load(0);
        },
      },
      h('h2', {}, 'Issue a key'),
      h(
        'div',
        { class: 'fields' },
        field('Role', select('role', ['merchant', 'partner', 'auditor', 'admin'])),
        field(
          'Merchant id',
          h('input', { name: 'merchant_id', value: params.get('merchant_id') ?? '' }),
          'Merchant keys only: the merchant the key acts for.',
        ),
        field(
          'Environment',
          select('environment', [
            ['', 'Default'],
            ['sandbox', 'sandbox'],
            ['production', 'production'],
          ]),
          'Default: the merchant’s for a merchant key, production otherwise.',
        ),
        field(
          'Name',
          h('input', { name: 'name', maxlength: 100 }),
          'Optional, to tell keys apart (e.g. “Lane 3 register”).',
        ),
        field(
          'Partner id',
          h('input', { name: 'partner_id', maxlength: 64 }),
          'Partner keys only, to replace a partner’s key and keep its merchants.',
        ),
      ),
      h('button', { type: 'submit' }, 'Issue key'),
    );

    main.append(
      ...pageHeading(
        'API keys',
        'Keys are stored as hashes: a raw key is shown once, when issued. Revoking a key takes effect on the very next request.',
      ),
      form,
      issued,
      h('h2', {}, 'All keys'),
      list,
    );
    load(0);
  },
};

/** The raw key, once: after "Done" or leaving the page it cannot be shown again. */
function oneTimeKey({ key, api_key: apiKey }, done) {
  const raw = h('input', {
    value: key,
    readonly: true,
    class: 'raw-key',
    'aria-label': 'The new key',
    spellcheck: 'false',
  });
  const copied = h('span', { 'aria-live': 'polite', class: 'hint' });
  return notice(
    'success',
    h(
      'p',
      {},
      h('strong', {}, `New ${apiKey.role} key ${apiKey.id}`),
      ` (${apiKey.environment}${apiKey.merchant_id ? `, merchant ${apiKey.merchant_id}` : ''}). `,
      'Copy it now: it is shown only this once and cannot be retrieved later.',
    ),
    h(
      'div',
      { class: 'copy-row' },
      raw,
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            raw.select();
            try {
              await navigator.clipboard.writeText(key);
              copied.textContent = 'Copied to the clipboard.';
            } catch {
              // No clipboard access (e.g. plain http on another host): the key is selected for Ctrl+C.
              copied.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
            }
          },
        },
        'Copy key',
      ),
      h('button', { type: 'button', class: 'secondary', onclick: done }, 'Done'),
    ),
    copied,
  );
}

/** `message`: a notice to show above the list, e.g. the outcome of a revocation. */
async function loadKeys(container, offset, message) {
  const path = withQuery('/admin/api-keys', { limit: PAGE_SIZE, offset });
  const body = await load(container, path, 'keys');
  if (!body) return;
  const keys = body.api_keys;
  const outcome = h('div', { 'aria-live': 'polite' }, message);
  const revoke = async (key) => {
    const name = key.name ? `“${key.name}” (${key.id})` : key.id;
    const confirmed = await confirmDialog({
      title: 'Revoke this key?',
      text: `Every request with the ${key.role} key ${name} will be refused from the next one on. This cannot be undone; a replacement is a new key.`,
      confirmLabel: 'Revoke key',
    });
    if (!confirmed) return;
    const path = `/admin/api-keys/${encodeURIComponent(key.id)}`;
    const revoked = await call('DELETE', path);
    if (!revoked.ok) return show(outcome, notice('error', await problemOf('DELETE', path, revoked)));
    await loadKeys(
      container,
      offset,
      notice(
        'success',
        `Revoked ${name} at `,
        utc(revoked.body.api_key.revoked_at),
        '. The API refuses it from now on.',
      ),
    );
  };
  show(
    container,
    outcome,
    table({
      caption: 'API keys, oldest first',
      rows: keys,
      empty: 'No key has been issued yet.',
      columns: [
        { label: 'Name', value: (k) => k.name },
        { label: 'Key id', value: (k) => copyable(k.id) },
        { label: 'Role', value: (k) => k.role },
        { label: 'Merchant', value: (k) => k.merchant_id },
        { label: 'Environment', value: (k) => k.environment },
        { label: 'Created', value: (k) => utc(k.created_at) },
        {
          label: 'Status',
          value: (k) =>
            k.revoked_at
              ? h('span', { class: 'badge revoked' }, 'Revoked ', utc(k.revoked_at))
              : h('span', { class: 'badge active' }, 'Active'),
        },
        {
          label: 'Actions',
          value: (k) =>
            k.revoked_at
              ? undefined
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'danger small',
                    onclick: () => revoke(k),
                    'aria-label': `Revoke key ${k.name ?? k.id}`,
                  },
                  'Revoke',
                ),
        },
      ],
    }),
    pager({
      offset,
      limit: PAGE_SIZE,
      count: keys.length,
      label: 'Key list',
      onPage: (next) => loadKeys(container, next),
    }),
  );
}
