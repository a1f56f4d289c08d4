import { call, withQuery } from '../api.js';
import { chart, voidsByHourChart } from '../charts.js';
import { anyValue, field, h, humanize, load, pageFooter, pageHeading, region, riskBadge, show } from '../dom.js';

const DIGITS = Array.from({ length: 10 }, (_, digit) => String(digit));

export const riskProfilePage = {
  path: 'risk-profile',
  title: 'Merchant risk profile',
  roles: ['admin'],
  render(main, params) {
    const merchantId = params.get('merchant_id') ?? '';
    const input = h('input', { name: 'merchant_id', value: merchantId, list: 'merchant-ids', required: true });
    const choices = h('datalist', { id: 'merchant-ids' });
    const form = h(
      'form',
      {
        class: 'card filters',
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          location.hash = withQuery('#/risk-profile', { merchant_id: input.value.trim() });
        },
      },
      h('div', { class: 'fields' }, field('Merchant id', input), choices),
      h('button', { type: 'submit' }, 'Show profile'),
    );
    const result = region('Risk profile');
    main.append(
      ...pageHeading(
        'Merchant risk profile',
        'How a merchant rounds, overrides and voids, against what honest rounding would look like.',
      ),
      form,
      result,
    );
    suggestMerchants(choices);
    if (merchantId) loadProfile(result, merchantId);
  },
};

async function suggestMerchants(datalist) {
  const answer = await call('GET', '/admin/merchants?limit=1000');
  if (answer.ok)
    datalist.replaceChildren(...answer.body.merchants.map((m) => h('option', { value: m.merchant_id }, m.name)));
}

async function loadProfile(container, merchantId) {
  const path = `/merchant/${encodeURIComponent(merchantId)}/risk-profile`;
  const profile = await load(container, path, `the profile of ${merchantId}`);
  if (!profile) return;
  const rounding = profile.rounding_analysis;
  show(
    container,
    h(
      'div',
      { class: 'profile-head' },
      h('h2', {}, `${profile.name} (${merchantId})`),
      riskBadge(profile.risk_level),
      h('span', { class: 'score' }, `Fraud score ${profile.fraud_score}`),
    ),
    profile.signals.length > 0 && anyValue(profile.signals, 'Signals behind the score'),
    h(
      'div',
      { class: 'charts' },
      roundingChart(rounding),
      pennyEndings(rounding),
      voidsByHourChart(profile.void_rates),
    ),
    ['rounding_analysis', 'override_patterns', 'void_rates'].map((name) =>
      h('section', {}, h('h2', {}, humanize(name)), anyValue(profile[name], humanize(name), name)),
    ),
    pageFooter(profile),
  );
}

/** The totals against what honest rounding of the same sales would have given, were their penny endings spread evenly. */
function roundingChart(rounding) {
  const honest = rounding.expected_under_honest_rounding.uniform_endings;
  return chart({
    title: 'Round-ups and round-downs',
    description:
      'Cash sales rounded up and rounded down, against what the same sales would give with penny endings spread evenly.',
    labels: ['Rounded up', 'Rounded down'],
    series: [
      { name: 'This merchant', values: [rounding.rounded_up, rounding.rounded_down], className: 'series-count' },
      { name: 'Honest rounding', values: [honest.rounded_up, honest.rounded_down], className: 'series-expected' },
    ],
  });
}

function pennyEndings(rounding) {
  const { counts } = rounding.penny_endings;
  const total = counts.reduce((sum, count) => sum + count, 0);
  return chart({
    title: 'Penny endings against uniform',
    description: `How many sales ended in each penny digit, 0 to 9, before rounding, against the ${total / 10} per digit a uniform spread would give. A pile-up on digits that round up is a sign of prices set to skim.`,
    labels: DIGITS,
    series: [{ name: 'Sales', values: counts, className: 'series-count' }],
    reference: { value: total / 10, name: 'Uniform' },
  });
}
