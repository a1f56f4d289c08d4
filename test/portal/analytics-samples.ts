import type { OverrideReportResponse } from '../../src/risk/override-report/override-report.response.dto';
import type { VoidAbuseResponse } from '../../src/risk/void-abuse/void-abuse.response.dto';
import type { VoidAnalyticsResponse } from '../../src/risk/void-analytics/void-analytics.response.dto';
import type { GetFraudOverviewResponse } from '../../src/risk/get-fraud-overview/get-fraud-overview.response.dto';
import type { GetRiskProfileResponse } from '../../src/risk/get-risk-profile/get-risk-profile.response.dto';

/**
 * Answers of the risk-profile, fraud-overview, void and override endpoints, for the analytics pages
 * to render the same picture in every screenshot. Each is an answer the service could give: the
 * shape of its response class (and `analytics.e2e-spec.ts` holds each to the service's own OpenAPI
 * document), with the numbers its analyses would derive from one platform of four merchants
 * (default shift changes at 6, 14 and 22 UTC, 30 minutes either side):
 *
 * - Quick Stop (`m-skimmer`) skims: its prices pile up on the penny endings 3, 4, 8 and 9, which the
 *   rule rounds up; J. Doe raises cash totals by override; voids cluster at the 14:00 shift change.
 * - Late Night Mart (`m-overrides`) overrides one sale in six and voids as many.
 * - Station Kiosk (`m-busy`) overrides a little often; Corner Deli (`m-honest`) is honest.
 */

/** The log position every answer is current as of. */
const AS_OF = 18_204;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `count` made-up VOID record ids, newest first, a few a day back from 2026-11-21, as a flag's evidence lists them. */
function voidRecordIds(count: number, seed: number, perDay: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    let value = ((seed + i) * 2_654_435_761) % 2 ** 40;
    const random = Array.from({ length: 8 }, () => {
      const char = ALPHABET[value % 32];
      value = Math.floor(value / 32);
      return char;
    }).join('');
    return `TXN-2026-11-${21 - Math.floor(i / perDay)}-${random}`;
  });
}

const QUICK_STOP_SIGNALS = [
  {
    code: 'ROUND_UP_BIAS',
    points: 40,
    detail: '412 of 545 directional cash roundings went up where honest rounding gives 272.5 (z = 11.95)',
  },
  {
    code: 'PENNY_ENDINGS_SKEWED',
    points: 20,
    detail:
      'the penny endings of 600 cash sales lean to those the rule rounds up (chi-square 206.67, 9 degrees of freedom)',
  },
  {
    code: 'OVERRIDES_RAISE_CASH',
    points: 15,
    detail: '27 of 29 overrides raised the cash total above the calculation (124 cents net)',
  },
  {
    code: 'VOIDS_AT_SHIFT_CHANGE',
    points: 15,
    detail:
      '19 of 30 voids were within 30 minutes of a shift change (6, 14, 22 UTC), which cover a share of 0.125 of the day (z = 8.42)',
  },
] satisfies GetRiskProfileResponse['signals'];

/** GET /merchant/m-skimmer/risk-profile */
export const RISK_PROFILE = {
  merchant_id: 'm-skimmer',
  fraud_score: 90,
  risk_level: 'CRITICAL',
  signals: QUICK_STOP_SIGNALS,
  rounding_analysis: {
    sales: 640,
    cash_sales: 600,
    rounded_up: 412,
    rounded_down: 133,
    unchanged: 55,
    up_ratio: 0.756,
    down_ratio: 0.244,
    net_rounding_cents: 418,
    expected_under_honest_rounding: {
      uniform_endings: { rounded_up: 240, rounded_down: 240, up_ratio: 0.5 },
      actual_endings: { rounded_up: 412, rounded_down: 133, up_ratio: 0.756 },
    },
    round_up_bias: { sample: 545, rounded_up: 412, expected_up: 272.5, z: 11.95 },
    penny_endings: {
      counts: [26, 35, 30, 103, 104, 29, 32, 36, 102, 103],
      chi_square: 206.67,
      degrees_of_freedom: 9,
      leans_to_round_up: true,
    },
    explicit_mode: { sales: 0, favoured_sales: 0, favoured_cents: 0 },
  },
  override_patterns: {
    overrides: 29,
    frequency: 0.0453,
    by_reason: { 'customer-request': 2, 'manager-discretion': 22, 'pricing-error': 5, 'system-error': 0 },
    raised: 27,
    lowered: 2,
    total_delta_cents: 124,
    average_delta_cents: 4,
    top_employees: [
      { employee_id: 'emp-7', employee_name: 'J. Doe', overrides: 24, total_delta_cents: 118 },
      { employee_id: 'emp-2', employee_name: 'A. Roe', overrides: 5, total_delta_cents: 6 },
    ],
  },
  void_rates: {
    sales: 640,
    voids: 30,
    void_rate: 0.0469,
    sales_cents: 731_450,
    voided_cents: 33_420,
    void_amount_rate: 0.0457,
    refunds: 9,
    refunded_cents: 7_460,
    normalization_failures: 1,
    normalization_failure_rate: 0.1111,
    voids_by_hour: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 6, 11, 1, 1, 1, 1, 1, 1, 0, 2, 0],
    voids_by_reason: {
      customer_changed_mind: 9,
      pricing_error: 12,
      duplicate_transaction: 3,
      employee_error: 5,
      fraud_suspected: 1,
    },
    shift_change: { hours: [6, 14, 22], window_minutes: 30, voids: 19, share: 0.6333, expected_share: 0.125, z: 8.42 },
    top_employee: { employee_id: 'emp-7', voids: 16, share: 0.5333 },
  },
  name: 'Quick Stop',
  as_of_position: AS_OF,
} satisfies GetRiskProfileResponse;

/** GET /admin/fraud-overview: highest score first, as the service ranks them. */
export const FRAUD_OVERVIEW = {
  as_of_position: AS_OF,
  summary: {
    merchant_count: 4,
    by_level: { NONE: 1, LOW: 1, MEDIUM: 0, HIGH: 1, CRITICAL: 1 },
    mean_score: 38.75,
    p90_score: 90,
  },
  merchants: [
    {
      rank: 1,
      merchant_id: 'm-skimmer',
      name: 'Quick Stop',
      environment: 'production',
      fraud_score: 90,
      risk_level: 'CRITICAL',
      signals: QUICK_STOP_SIGNALS,
      sales: 640,
    },
    {
      rank: 2,
      merchant_id: 'm-overrides',
      name: 'Late Night Mart',
      environment: 'production',
      fraud_score: 55,
      risk_level: 'HIGH',
      signals: [
        { code: 'OVERRIDE_FREQUENCY', points: 20, detail: '52 overrides on 310 sales (0.1677 per sale)' },
        {
          code: 'OVERRIDES_RAISE_CASH',
          points: 15,
          detail: '49 of 52 overrides raised the cash total above the calculation (231 cents net)',
        },
        { code: 'HIGH_VOID_RATE', points: 20, detail: '47 of 310 sales were voided (rate 0.1516)' },
      ],
      sales: 310,
    },
    {
      rank: 3,
      merchant_id: 'm-busy',
      name: 'Station Kiosk',
      environment: 'production',
      fraud_score: 10,
      risk_level: 'LOW',
      signals: [{ code: 'OVERRIDE_FREQUENCY', points: 10, detail: '65 overrides on 1210 sales (0.0537 per sale)' }],
      sales: 1210,
    },
    {
      rank: 4,
      merchant_id: 'm-honest',
      name: 'Corner Deli',
      environment: 'production',
      fraud_score: 0,
      risk_level: 'NONE',
      signals: [],
      sales: 640,
    },
  ],
  total: 4,
  limit: 100,
  offset: 0,
} satisfies GetFraudOverviewResponse;

/** GET /analytics/voids: every merchant, highest void rate first. */
export const VOID_ANALYTICS = {
  merchant_id: null,
  as_of_position: AS_OF,
  totals: {
    sales: 2800,
    voids: 87,
    void_rate: 0.0311,
    sales_cents: 2_868_855,
    voided_cents: 84_215,
    void_amount_rate: 0.0294,
    refunds: 23,
    refunded_cents: 19_880,
    normalization_failures: 4,
    normalization_failure_rate: 0.1739,
    voids_by_hour: [6, 5, 3, 0, 0, 0, 0, 0, 1, 2, 2, 3, 2, 6, 11, 2, 2, 3, 4, 6, 6, 6, 9, 8],
    voids_by_reason: {
      customer_changed_mind: 24,
      pricing_error: 31,
      duplicate_transaction: 9,
      employee_error: 17,
      fraud_suspected: 6,
    },
    shift_change: { hours: [6, 14, 22], window_minutes: 30, voids: 26, share: 0.2989, expected_share: 0.125, z: 4.9 },
    top_employee: null,
  },
  merchants: [
    {
      merchant_id: 'm-overrides',
      sales: 310,
      voids: 47,
      void_rate: 0.1516,
      sales_cents: 402_180,
      voided_cents: 41_275,
      void_amount_rate: 0.1026,
      refunds: 6,
      refunded_cents: 5_120,
      normalization_failures: 1,
      normalization_failure_rate: 0.1667,
    },
    {
      merchant_id: 'm-skimmer',
      sales: 640,
      voids: 30,
      void_rate: 0.0469,
      sales_cents: 731_450,
      voided_cents: 33_420,
      void_amount_rate: 0.0457,
      refunds: 9,
      refunded_cents: 7_460,
      normalization_failures: 1,
      normalization_failure_rate: 0.1111,
    },
    {
      merchant_id: 'm-honest',
      sales: 640,
      voids: 4,
      void_rate: 0.0063,
      sales_cents: 689_905,
      voided_cents: 3_390,
      void_amount_rate: 0.0049,
      refunds: 3,
      refunded_cents: 2_950,
      normalization_failures: 1,
      normalization_failure_rate: 0.3333,
    },
    {
      merchant_id: 'm-busy',
      sales: 1210,
      voids: 6,
      void_rate: 0.005,
      sales_cents: 1_045_320,
      voided_cents: 6_130,
      void_amount_rate: 0.0059,
      refunds: 5,
      refunded_cents: 4_350,
      normalization_failures: 1,
      normalization_failure_rate: 0.2,
    },
  ],
  merchant_count: 4,
  limit: 100,
  offset: 0,
} satisfies VoidAnalyticsResponse;

/** GET /analytics/void-abuse: the void signals of the overview, most points first, each with the records behind it. */
export const VOID_ABUSE = {
  merchant_id: null,
  as_of_position: AS_OF,
  shift_change: { hours: [6, 14, 22], window_minutes: 30 },
  flag_count: 2,
  flags: [
    {
      merchant_id: 'm-overrides',
      code: 'HIGH_VOID_RATE',
      points: 20,
      detail: '47 of 310 sales were voided (rate 0.1516)',
      evidence: { record_type: 'VOID', ids: voidRecordIds(47, 101, 7), count: 47 },
    },
    {
      merchant_id: 'm-skimmer',
      code: 'VOIDS_AT_SHIFT_CHANGE',
      points: 15,
      detail: QUICK_STOP_SIGNALS[3].detail,
      evidence: { record_type: 'VOID', ids: voidRecordIds(19, 701, 3), count: 19 },
    },
  ],
} satisfies VoidAbuseResponse;

/** GET /overrides/report?merchant_id=m-skimmer&start_date=2026-11-21: oldest first. */
export const OVERRIDE_REPORT = {
  filters: { merchant_id: 'm-skimmer', start_date: '2026-11-21', end_date: null },
  as_of_position: AS_OF,
  summary: {
    overrides: 4,
    raised: 3,
    lowered: 1,
    total_delta_cents: 10,
    by_reason: { 'customer-request': 1, 'manager-discretion': 2, 'pricing-error': 1, 'system-error': 0 },
    average_delta_cents: 3,
  },
  overrides: [
    {
      id: 'OVR-2026-11-21-3F8K2M1Q',
      merchant_id: 'm-skimmer',
      transaction_id: 'TXN-2026-11-21-8KQ2M4PZ',
      employee_id: 'emp-7',
      employee_name: 'J. Doe',
      reason: 'manager-discretion',
      calculated_cash_total_cents: 1005,
      previous_cash_total_cents: 1005,
      new_cash_total_cents: 1010,
      delta_cents: 5,
      created_at: '2026-11-21T15:02:11.000Z',
      auditHash: '2b92d524f9c6c04bf4f2e68334195f1e5702b03f06ea43d0b173ac21d130e73a',
      chain_position: 17_912,
    },
    {
      id: 'OVR-2026-11-21-9C1V5N7R',
      merchant_id: 'm-skimmer',
      transaction_id: 'TXN-2026-11-21-4M7P1Q9S',
      employee_id: 'emp-7',
      employee_name: 'J. Doe',
      reason: 'manager-discretion',
      calculated_cash_total_cents: 1840,
      previous_cash_total_cents: 1840,
      new_cash_total_cents: 1845,
      delta_cents: 5,
      created_at: '2026-11-21T16:15:30.000Z',
      auditHash: '37ed705a89acc380acd125063b01926e72ee4391c5e2d5cabec6764d9e8d2e83',
      chain_position: 17_988,
    },
    {
      id: 'OVR-2026-11-21-7T2B9C4D',
      merchant_id: 'm-skimmer',
      transaction_id: 'TXN-2026-11-21-2H6J8K0M',
      employee_id: 'emp-2',
      employee_name: 'A. Roe',
      reason: 'pricing-error',
      calculated_cash_total_cents: 2495,
      previous_cash_total_cents: 2495,
      new_cash_total_cents: 2500,
      delta_cents: 5,
      created_at: '2026-11-21T18:40:52.000Z',
      auditHash: '7044e4145b9f54a9bfb672e39775bc2ca52612e04a99ca30732f263c16e97936',
      chain_position: 18_120,
    },
    {
      id: 'OVR-2026-11-21-B4X8W2E6',
      merchant_id: 'm-skimmer',
      transaction_id: 'TXN-2026-11-21-6R3T5Y8V',
      employee_id: 'emp-7',
      employee_name: 'J. Doe',
      reason: 'customer-request',
      calculated_cash_total_cents: 765,
      previous_cash_total_cents: 765,
      new_cash_total_cents: 760,
      delta_cents: -5,
      created_at: '2026-11-21T19:05:48.000Z',
      auditHash: '21bc7c27cc2f71bcee322eec48a9d8be2df07b790e75efe153796254bb293b4b',
      chain_position: 18_151,
    },
  ],
  total: 4,
  limit: 100,
  offset: 0,
} satisfies OverrideReportResponse;

export const EXPORT_CSV =
  'transaction_id,merchant_id,cash_total_cents,audit_hash\r\nTXN-2026-11-21-8KQ2M4PZ,m-skimmer,1010,5bcf4f37\r\nTXN-2026-11-21-2H6J8K0L,m-overrides,2499,83212a98\r\n';
