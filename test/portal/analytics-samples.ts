/**
 * Answers in the shapes of issue 9 (risk profiles, fraud overview, void and override analytics) and
 * issue 10 (export), as far as their code stood when the portal was written, for the pages to
 * render while those endpoints are being built. The spec leaves their inner fields open, and the
 * pages read whatever a few likely names hold.
 */

/**
 * A skimmer: round-ups pile up on the endings 3, 4, 8 and 9, voids cluster at the 3 pm shift change.
 * The shape of src/fraud's RiskProfile, plus `by_day`, which the portal charts when a profile has it.
 */
export const RISK_PROFILE = {
  merchant_id: 'm-skimmer',
  name: 'Quick Stop',
  fraud_score: 82,
  risk_level: 'CRITICAL',
  signals: [
    { code: 'ROUND_UP_BIAS', points: 40, detail: 'z = 9.1 over 600 directional roundings' },
    { code: 'VOIDS_AT_SHIFT_CHANGE', points: 25, detail: '19 of 55 voids within 15 minutes of a shift change' },
  ],
  rounding_analysis: {
    sales: 640,
    cash_sales: 600,
    rounded_up: 412,
    rounded_down: 188,
    unchanged: 0,
    up_ratio: 0.687,
    down_ratio: 0.313,
    net_rounding_cents: 648,
    expected_under_honest_rounding: { uniform_endings: { rounded_up: 300, rounded_down: 300, up_ratio: 0.5 } },
    penny_endings: { counts: [31, 12, 14, 118, 121, 29, 15, 11, 127, 122], chi_square: 412.6, degrees_of_freedom: 9, leans_to_round_up: true },
    by_day: ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'].map((date, i) => ({
      date,
      rounded_up: 52 + i * 9,
      rounded_down: 41 - i * 3,
    })),
  },
  override_patterns: {
    overrides: 37,
    frequency: 0.061,
    by_reason: { 'manager-discretion': 29, 'pricing-error': 6, 'customer-request': 2, 'system-error': 0 },
    raised: 35,
    lowered: 2,
    total_delta_cents: 148,
    average_delta_cents: 4,
    top_employees: [
      { employee_id: 'emp-7', employee_name: 'J. Doe', overrides: 31, total_delta_cents: 131 },
      { employee_id: 'emp-2', employee_name: 'A. Roe', overrides: 6, total_delta_cents: 17 },
    ],
  },
  void_rates: {
    sales: 600,
    voids: 55,
    void_rate: 0.092,
    normalization_failures: 4,
    normalization_failure_rate: 0.18,
    voids_by_hour: Array.from({ length: 24 }, (_, hour) => (hour === 15 ? 19 : hour === 14 || hour === 23 ? 8 : hour >= 8 && hour <= 22 ? 1 : 0)),
  },
};

/** Deliberately not in rank order: the page must put HIGH and CRITICAL first. */
export const FRAUD_OVERVIEW = {
  summary: { merchant_count: 4, by_level: { NONE: 1, LOW: 1, MEDIUM: 0, HIGH: 1, CRITICAL: 1 }, mean_score: 36.5, p90_score: 78 },
  merchants: [
    { merchant_id: 'm-honest', name: 'Corner Deli', fraud_score: 0, risk_level: 'NONE', sales: 640, signals: [] },
    { merchant_id: 'm-overrides', name: 'Late Night Mart', fraud_score: 55, risk_level: 'HIGH', sales: 310, signals: [{ code: 'FREQUENT_OVERRIDES', points: 55, detail: '' }] },
    { merchant_id: 'm-busy', name: 'Station Kiosk', fraud_score: 9, risk_level: 'LOW', sales: 1210, signals: [] },
    { merchant_id: 'm-skimmer', name: 'Quick Stop', fraud_score: 82, risk_level: 'CRITICAL', sales: 600, signals: [{ code: 'ROUND_UP_BIAS', points: 40, detail: '' }, { code: 'VOIDS_AT_SHIFT_CHANGE', points: 25, detail: '' }] },
  ],
  total: 4,
  limit: 100,
  offset: 0,
};

export const VOID_ANALYTICS = {
  merchant_id: null,
  totals: {
    sales: 2760,
    voids: 71,
    void_rate: 0.031,
    voided_cents: 84_215,
    refunds: 23,
    refunded_cents: 19_880,
    normalization_failures: 4,
    normalization_failure_rate: 0.174,
    voids_by_hour: Array.from({ length: 24 }, (_, hour) => (hour === 15 ? 21 : hour >= 8 && hour <= 22 ? 3 : 0)),
  },
  merchants: [
    { merchant_id: 'm-skimmer', sales: 600, voids: 55, void_rate: 0.092, voided_cents: 61_040 },
    { merchant_id: 'm-honest', sales: 640, voids: 9, void_rate: 0.014, voided_cents: 12_410 },
  ],
  merchant_count: 2,
  limit: 100,
  offset: 0,
};

export const VOID_ABUSE = {
  flags: [
    { type: 'HIGH_VOID_RATE', merchant_id: 'm-skimmer', detail: 'void rate 9.2% against 3.1% across merchants', evidence: ['TXN-2026-11-21-8KQ2M4PZ', 'TXN-2026-11-21-9W3D7XRB'] },
    { type: 'VOIDS_AT_SHIFT_CHANGE', merchant_id: 'm-skimmer', detail: '19 of 55 voids within 15 minutes of the 15:00 shift change', evidence: ['emp-7'] },
  ],
  shift_boundaries: ['07:00', '15:00', '23:00'],
};

export const OVERRIDE_REPORT = {
  count: 2,
  total_delta_cents: 9,
  overrides: [
    { override_id: 'OVR-2026-11-21-3F8K2M1Q', transaction_id: 'TXN-2026-11-21-8KQ2M4PZ', merchant_id: 'm-skimmer', employee_id: 'emp-7', employee_name: 'J. Doe', reason: 'manager-discretion', calculated_cents: 1005, overridden_cents: 1010, delta_cents: 5, recorded_at: '2026-11-21T15:02:11.000Z' },
    { override_id: 'OVR-2026-11-21-7T2B9C4D', transaction_id: 'TXN-2026-11-21-2H6J8K0L', merchant_id: 'm-skimmer', employee_id: 'emp-2', employee_name: 'A. Roe', reason: 'pricing-error', calculated_cents: 2495, overridden_cents: 2499, delta_cents: 4, recorded_at: '2026-11-21T18:40:52.000Z' },
  ],
};

export const EXPORT_CSV = 'transaction_id,merchant_id,cash_total_cents,audit_hash\r\nTXN-2026-11-21-8KQ2M4PZ,m-skimmer,1010,5bcf4f37\r\nTXN-2026-11-21-2H6J8K0L,m-overrides,2499,83212a98\r\n';
