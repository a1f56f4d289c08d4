/**
 * The risk profile of a merchant: its rounding, overrides and voids analysed, and scored with the
 * shared signal table. Pure and deterministic: the same history and shift configuration always give
 * the same profile.
 */

import { ApiProperty } from '@nestjs/swagger';
import { assess } from '../rules/fraud-signals';
import { FraudAssessmentDto } from '../transactions';
import { OverridePatterns, overridePatterns, overrideSignals, type OverrideActivity } from './override-analysis';
import { RoundingAnalysis, roundingAnalysis, roundingSignals, type RoundingActivity } from './rounding-analysis';
import { VoidRates, voidRates, voidSignals, type VoidActivity } from './void-analysis';
import { type ShiftChanges } from '../platform/config/config';

export interface MerchantActivity {
  rounding: RoundingActivity;
  overrides: OverrideActivity;
  voids: VoidActivity;
}

export class RiskProfile extends FraudAssessmentDto {
  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;

  @ApiProperty({ description: 'Round-ups against round-downs, what honest rounding would give, and the penny-ending distribution' })
  rounding_analysis: RoundingAnalysis;

  @ApiProperty({ description: 'Override frequency, reasons, the delta between calculated and overridden cash totals, and who overrode' })
  override_patterns: OverridePatterns;

  @ApiProperty({ description: 'Void and refund counts, rates and amounts, normalization failures, and when and by whom voids were made' })
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
