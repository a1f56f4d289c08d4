import { withQuery } from '../api.js';
import {
  anyValue,
  h,
  load,
  notice,
  pageFooter,
  pageHeading,
  pager,
  region,
  riskBadge,
  show,
  signalName,
  table,
} from '../dom.js';

const LEVELS = ['NONE', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const PAGE_SIZE = 100;

export const fraudOverviewPage = {
  path: 'fraud-overview',
  title: 'Fraud overview',
  roles: ['admin'],
  render(main) {
    const result = region('Fraud overview');
    main.append(
      ...pageHeading(
        'Fraud overview',
        'Every merchant ranked by risk: HIGH and CRITICAL first, then by score. Open a merchant for its risk profile.',
      ),
      result,
    );
    loadOverview(result, 0);
  },
};

async function loadOverview(container, offset) {
  const path = withQuery('/admin/fraud-overview', { limit: PAGE_SIZE, offset });
  const body = await load(container, path, 'the overview');
  if (!body) return;
  const merchants = [...body.merchants].sort(byRisk);
  const { summary } = body;
  const flagged = summary.by_level.HIGH + summary.by_level.CRITICAL;
  show(
    container,
    notice(
      flagged ? 'warning' : 'success',
      flagged
        ? `${flagged} merchant${flagged === 1 ? ' needs' : 's need'} review (HIGH or CRITICAL).`
        : 'No merchant is at HIGH or CRITICAL risk.',
    ),
    h('h2', {}, 'Summary'),
    anyValue(summary, 'Summary'),
    h('h2', {}, 'Merchants by risk'),
    table({
      caption: 'Merchants, highest risk first',
      rows: merchants,
      empty: 'No merchant has a risk score yet.',
      columns: [
        { label: 'Rank', value: (m) => m.rank, numeric: true },
        {
          label: 'Merchant',
          value: (m) =>
            h('a', { href: `#/risk-profile?merchant_id=${encodeURIComponent(m.merchant_id)}` }, m.merchant_id),
        },
        { label: 'Name', value: (m) => m.name },
        { label: 'Risk', value: (m) => riskBadge(m.risk_level) },
        { label: 'Score', value: (m) => m.fraud_score, numeric: true },
        { label: 'Sales', value: (m) => m.sales, numeric: true },
        {
          label: 'Signals',
          value: (m) =>
            m.signals.length === 0
              ? '—'
              : m.signals.flatMap(({ code }, i) => (i === 0 ? [signalName(code)] : [', ', signalName(code)])),
        },
      ],
    }),
    pager({
      offset,
      limit: PAGE_SIZE,
      count: merchants.length,
      label: 'Merchant ranking',
      onPage: (next) => loadOverview(container, next),
    }),
    pageFooter(body),
  );
}

const isFlagged = (merchant) => ['HIGH', 'CRITICAL'].includes(merchant.risk_level);

/** The spec's order, which the API already gives: HIGH and CRITICAL first; then by level and score, highest first. */
function byRisk(a, b) {
  return (
    Number(isFlagged(b)) - Number(isFlagged(a)) ||
    LEVELS.indexOf(b.risk_level) - LEVELS.indexOf(a.risk_level) ||
    b.fraud_score - a.fraud_score
  );
}
