import { withQuery } from '../api.js';
import {
  anyValue,
  dateRangeFields,
  field,
  formValues,
  h,
  load,
  pageFooter,
  pageHeading,
  region,
  show,
} from '../dom.js';

export const overridesPage = {
  path: 'overrides',
  title: 'Override report',
  roles: ['auditor', 'admin'],
  render(main, params) {
    const filter = {
      merchant_id: params.get('merchant_id') ?? '',
      start_date: params.get('start_date') ?? '',
      end_date: params.get('end_date') ?? '',
    };
    const form = h(
      'form',
      {
        class: 'card filters',
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          location.hash = withQuery('#/overrides', formValues(form));
        },
      },
      h(
        'div',
        { class: 'fields' },
        field('Merchant id', h('input', { name: 'merchant_id', value: filter.merchant_id }), 'Empty: every merchant.'),
        dateRangeFields(filter),
      ),
      h('button', { type: 'submit' }, 'Show overrides'),
    );
    const result = region('Override report');
    main.append(
      ...pageHeading(
        'Override report',
        'Every change of a calculated cash total, with the employee who made it, the reason and the difference.',
      ),
      form,
      result,
    );
    loadReport(result, filter);
  },
};

async function loadReport(container, filter) {
  const path = withQuery('/overrides/report', filter);
  const body = await load(container, path, 'the report');
  if (!body) return;
  const { overrides, ...rest } = body;
  show(
    container,
    anyValue(rest, 'Summary'),
    overrides.length ? anyValue(overrides, 'Overrides') : h('p', { class: 'empty' }, 'No override in this range.'),
    pageFooter(body),
  );
}
