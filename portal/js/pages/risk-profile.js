import { call, withQuery } from '../api.js';
import { chart, countsBy, voidsByHourChart } from '../charts.js';
import { anyValue, field, h, humanize, load, pageHeading, pick, region, riskBadge, show } from '../dom.js';

const DIGITS = Array.from({ length: 10 }, (_, digit) => String(digit));

export const riskProfilePage = {
  path: 'risk-profile',
  title: 'Merchant risk profile',
  roles: ['admin'],
  render(main, params) {
    const merchantId = params.get('merchant_id') ?? '';
    const input = h('input', { name: 'merchant_id', value: merchantId, list: 'merchant-ids', required: true });
    const choices = h('datalist', { id: 'merchant-ids' });
    const form = h('form', { class: 'card filters', role: 'search', onsubmit: (event) => {
      event.preventDefault();
      location.hash = withQuery('#/risk-profile', { merchant_id: input.value.trim() });
    } },
    h('div', { class: 'fields' }, field('Merchant id', input), choices),
    h('button', { type: 'submit' }, 'Show profile'));
    const result = region('Risk profile');
    main.append(...pageHeading('Merchant risk profile', 'How a merchant rounds, overrides and voids, against what honest rounding would look like.'), form, result);
    suggestMerchants(choices);
    if (merchantId) loadProfile(result, merchantId);
  },
};

async function suggestMerchants(datalist) {
  const answer = await call('GET', '/admin/merchants?limit=1000');
  if (answer.ok) datalist.replaceChildren(...answer.body.merchants.map((m) => h('option', { value: m.merchant_id }, m.name)));
}

async function loadProfile(container, merchantId) {
  const path = `/merchant/${encodeURIComponent(merchantId)}/risk-profile`;
  const profile = await load(container, path, `the profile of ${merchantId}`);
  if (!profile) return;
  const rounding = profile.rounding_analysis ?? {};
  const voids = profile.void_rates ?? {};
  show(container,
    h('div', { class: 'profile-head' },
      h('h2', {}, profile.name ? `${profile.name} (${merchantId})` : merchantId),
      riskBadge(profile.risk_level),
      h('span', { class: 'score' }, `Fraud score ${profile.fraud_score ?? '—'}`)),
    profile.signals?.length > 0 && anyValue(profile.signals, 'Signals behind the score'),
    h('div', { class: 'charts' },
      roundingChart(rounding),
      pennyEndings(rounding),
      voidsByHourChart(voids) ?? missing('Voids by hour of day')),
    ['rounding_analysis', 'override_patterns', 'void_rates'].map((name) => profile[name] && h('section', {}, h('h2', {}, humanize(name)), anyValue(profile[name], humanize(name)))));
}

/**
 * Up and down counts per period when the profile has them (the spec leaves the inner fields open, so
 * a few spellings are read); otherwise the totals against what honest rounding of the same sales
 * would have given.
 */
function roundingChart(rounding) {
  const periods = pick(rounding, 'by_day', 'over_time', 'timeline', 'by_period', 'daily', 'by_week', 'weekly', 'history');
  if (Array.isArray(periods) && periods.length > 0) {
    const count = (names) => periods.map((p) => Number(pick(p, ...names) ?? 0));
    return chart({
      kind: 'line',
      title: 'Round-ups and round-downs over time',
      description: 'Cash sales rounded up and rounded down in each period. Honest rounding of prices the merchant does not steer keeps the two lines close together.',
      labels: periods.map((p) => String(pick(p, 'date', 'day', 'period', 'week', 'month') ?? '')),
      series: [
        { name: 'Rounded up', values: count(['rounded_up', 'round_ups', 'round_up_count', 'ups']), className: 'series-up' },
        { name: 'Rounded down', values: count(['rounded_down', 'round_downs', 'round_down_count', 'downs']), className: 'series-down' },
      ],
    });
  }
  const up = pick(rounding, 'rounded_up', 'round_up_count');
  const down = pick(rounding, 'rounded_down', 'round_down_count');
  if (up === undefined || down === undefined) return missing('Round-ups and round-downs');
  const honest = rounding.expected_under_honest_rounding?.uniform_endings;
  return chart({
    kind: 'bar',
    title: 'Round-ups and round-downs',
    description: 'Cash sales rounded up and rounded down, against what the same sales would give with penny endings spread evenly.',
    labels: ['Rounded up', 'Rounded down'],
    series: [
      { name: 'This merchant', values: [up, down], className: 'series-count' },
      ...(honest ? [{ name: 'Honest rounding', values: [honest.rounded_up, honest.rounded_down], className: 'series-expected' }] : []),
    ],
  });
}

function pennyEndings(rounding) {
  const counts = countsBy(pick(rounding, 'penny_endings', 'penny_ending_distribution', 'penny_distribution'), 10, ['ending', 'digit']);
  if (!counts) return missing('Penny endings');
  const total = counts.reduce((sum, count) => sum + count, 0);
  return chart({
    kind: 'bar',
    title: 'Penny endings against uniform',
    description: `How many sales ended in each penny digit, 0 to 9, before rounding, against the ${total / 10} per digit a uniform spread would give. A pile-up on digits that round up is a sign of prices set to skim.`,
    labels: DIGITS,
    series: [{ name: 'Sales', values: counts, className: 'series-count' }],
    reference: { value: total / 10, name: 'Uniform' },
  });
}

const missing = (title) => h('figure', { class: 'chart' }, h('figcaption', {}, title), h('p', { class: 'empty' }, 'The profile has no data for this chart.'));
