import { voidsByHourChart } from '../charts.js';
import { anyValue, h, load, notice, pageFooter, pageHeading, region, show } from '../dom.js';

export const voidsPage = {
  path: 'voids',
  title: 'Void analytics',
  roles: ['auditor', 'admin'],
  render(main) {
    const totals = region('Void totals');
    const abuse = region('Void abuse');
    main.append(
      ...pageHeading(
        'Void analytics',
        'How often sales are voided and refunded, whether refunds reverse the sale’s rounding, and the patterns that point to abuse.',
      ),
      h('h2', {}, 'Voids and refunds'),
      totals,
      h('h2', {}, 'Possible abuse'),
      abuse,
    );
    loadVoids(totals);
    loadAbuse(abuse);
  },
};

async function loadVoids(container) {
  const body = await load(container, '/analytics/voids', 'void analytics');
  if (!body) return;
  show(container, voidsByHourChart(body.totals), anyValue(body, 'Void analytics'), pageFooter(body));
}

/** Flags first, as a table naming their evidence; whatever else the answer holds after them. */
async function loadAbuse(container) {
  const body = await load(container, '/analytics/void-abuse', 'the abuse analysis');
  if (!body) return;
  const { flags, ...rest } = body;
  show(
    container,
    notice(
      flags.length ? 'warning' : 'success',
      flags.length
        ? `${flags.length} pattern${flags.length === 1 ? '' : 's'} flagged for review.`
        : 'No void pattern is flagged.',
    ),
    flags.length > 0 && anyValue(flags, 'Flags, each with its evidence'),
    anyValue(rest, 'Void abuse'),
    pageFooter(body),
  );
}
