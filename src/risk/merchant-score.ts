/**
 * The risk profile of a merchant: its rounding, overrides and voids analysed, and scored with the
 * shared signal table. Pure and deterministic: the same history and shift configuration always give
 * the same profile.
 */

import type { ShiftChanges } from '../platform/config/config';
import { assess, type FraudAssessment } from '../rules/fraud-signals';
import { overridePatterns, overrideSignals, type OverrideActivity, type OverridePatterns } from './override-analysis';
import { roundingAnalysis, roundingSignals, type RoundingActivity, type RoundingAnalysis } from './rounding-analysis';
import { voidRates, voidSignals, type VoidActivity, type VoidRates } from './void-analysis';

export interface MerchantActivity {
  rounding: RoundingActivity;
  overrides: OverrideActivity;
  voids: VoidActivity;
}

export interface RiskProfile extends FraudAssessment {
  merchant_id: string;
  rounding_analysis: RoundingAnalysis;
  override_patterns: OverridePatterns;
  void_rates: VoidRates;
}

export function riskProfile(merchantId: string, activity: MerchantActivity, shift: ShiftChanges): RiskProfile {
  const rounding = roundingAnalysis(activity.rounding);
  const overrides = overridePatterns(activity.overrides, rounding.sales);
  const voids = voidRates(activity.voids, shift);
  return {
    merchant_id: merchantId,
    ...assess([...roundingSignals(rounding), ...overrideSignals(overrides, rounding.sales), ...voidSignals(voids)]),
    rounding_analysis: rounding,
    override_patterns: overrides,
    void_rates: voids,
  };
}
