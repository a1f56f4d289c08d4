import { call, problemOf, withQuery } from '../api.js';
import { field, formValues, h, load, notice, pageHeading, pager, region, select, show, table, utc } from '../dom.js';

const PAGE_SIZE = 50;

export const merchantsPage = {
  path: 'merchants',
  title: 'Merchants',
  roles: ['admin'],
  render(main) {
    const result = h('div', { 'aria-live': 'polite' });
    const list = region('Merchants');
    const load = (offset) => loadMerchants(list, offset);

    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: async (event) => {
          event.preventDefault();
          const body = formValues(form);
          const answer = await call('POST', '/admin/merchants', { body });
          if (!answer.ok) return show(result, notice('error', await problemOf('POST', '/admin/merchants', answer)));
          const { merchant } = answer.body;
          show(
            result,
            notice(
              'success',
              `Onboarded ${merchant.name} as ${merchant.merchant_id} (${merchant.environment}). `,
              h('a', { href: `#/keys?merchant_id=${encodeURIComponent(merchant.merchant_id)}` }, 'Issue a key for it'),
            ),
          );
          form.reset();
          load(0);
        },
      },
      h('h2', {}, 'Onboard a merchant'),
      h(
        'div',
        { class: 'fields' },
        field(
          'Merchant id',
          h('input', {
            name: 'merchant_id',
            required: true,
            maxlength: 64,
            pattern: '[A-Za-z0-9][A-Za-z0-9_.:\\-]{0,63}',
          }),
          'Letters, digits and _ . : - (up to 64); it cannot be changed later.',
        ),
        field('Name', h('input', { name: 'name', required: true, maxlength: 200 })),
        field(
          'Environment',
          select('environment', ['sandbox', 'production'], 'production'),
          'Sandbox merchants take sandbox keys only.',
        ),
      ),
      h('button', { type: 'submit' }, 'Onboard merchant'),
      result,
    );

    main.append(
      ...pageHeading(
        'Merchants',
        'Every merchant on the platform. Onboarding records a MerchantOnboarded entry in the audit log.',
      ),
      form,
      h('h2', {}, 'All merchants'),
      list,
    );
    load(0);
  },
};

async function loadMerchants(container, offset) {
  const path = withQuery('/admin/merchants', { limit: PAGE_SIZE, offset });
  const body = await load(container, path, 'merchants');
  if (!body) return;
  const { merchants } = body;
  show(
    container,
    table({
      caption: 'Merchants, oldest first',
      rows: merchants,
      empty: 'No merchant is onboarded yet.',
      columns: [
        { label: 'Merchant id', value: (m) => m.merchant_id },
        { label: 'Name', value: (m) => m.name },
        { label: 'Environment', value: (m) => m.environment },
        { label: 'Partner', value: (m) => m.partner_id },
        { label: 'Onboarded', value: (m) => utc(m.onboarded_at) },
        {
          label: 'Actions',
          value: (m) =>
            h(
              'span',
              { class: 'row-actions' },
              h('a', { href: `#/keys?merchant_id=${encodeURIComponent(m.merchant_id)}` }, 'Issue key'),
              h('a', { href: `#/risk-profile?merchant_id=${encodeURIComponent(m.merchant_id)}` }, 'Risk profile'),
            ),
        },
      ],
    }),
    pager({
      offset,
      limit: PAGE_SIZE,
      count: merchants.length,
      label: 'Merchant list',
      onPage: (next) => loadMerchants(container, next),
    }),
  );
}
