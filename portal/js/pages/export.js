import { call, problemOf } from '../api.js';
import { dateRangeFields, field, formValues, h, notice, pageHeading, select, show } from '../dom.js';

export const exportPage = {
  path: 'export',
  title: 'CSV export',
  roles: ['auditor', 'admin'],
  render(main) {
    const outcome = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: async (event) => {
          event.preventDefault();
          const body = Object.fromEntries(Object.entries(formValues(form)).filter(([, value]) => value !== ''));
          show(outcome, h('p', { class: 'loading' }, 'Exporting…'));
          const answer = await call('POST', '/export', { body });
          if (!answer.ok) return show(outcome, notice('error', await problemOf('POST', '/export', answer)));
          const name = fileName(answer.headers.get('content-disposition')) ?? `export-${body.export_mode}.csv`;
          download(answer.body, name);
          const rows = Math.max(0, answer.body.split('\n').filter(Boolean).length - 1);
          show(outcome, notice('success', `Downloaded ${name}: ${rows} row${rows === 1 ? '' : 's'}.`));
        },
      },
      h(
        'div',
        { class: 'fields' },
        field(
          'Mode',
          select('export_mode', [
            ['standard', 'standard (53 columns)'],
            ['full', 'full (every field)'],
            ['summary', 'summary (key fields)'],
          ]),
        ),
        dateRangeFields(),
        field('Payment method', select('payment_method', [['', 'Any'], 'cash', 'card', 'ebt', 'mobile'])),
        field('Compliance status', select('compliance_status', [['', 'Any'], 'PASS', 'WARN', 'FAIL'])),
        field('Merchant id', h('input', { name: 'merchant_id' }), 'Empty: every merchant.'),
      ),
      h('button', { type: 'submit' }, 'Download CSV'),
      outcome,
    );
    main.append(...pageHeading('CSV export', 'Transactions as a CSV file for regulators, from POST /export.'), form);
  },
};

function fileName(disposition) {
  return /filename="?([^";]+)"?/.exec(disposition ?? '')?.[1];
}

/** Saves text as a file through a temporary same-origin blob URL: nothing leaves the browser. */
function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
