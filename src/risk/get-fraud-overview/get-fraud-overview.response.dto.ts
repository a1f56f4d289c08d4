import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AsOfPosition } from '../../platform/as-of-position';
import { type Environment, ENVIRONMENTS } from '../../platform/identity/principal';
import { countsBy } from '../../platform/openapi/counts-by';
import { PageAnswer } from '../../platform/page.request.dto';
import { RISK_LEVELS, type RiskLevel } from '../../rules/fraud-signals';
import { FraudSignalDto } from '../../transactions/fraud-signal.response.dto';

/** Merchants by risk level, every level listed. */
export const RiskLevelCounts = countsBy('RiskLevelCounts', RISK_LEVELS, {
  NONE: 1,
  LOW: 1,
  MEDIUM: 0,
  HIGH: 1,
  CRITICAL: 1,
});

export class RankedMerchant {
  /** 1 for the riskiest merchant. */
  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the riskiest merchant', example: 1 })
  rank: number;

  @ApiProperty({ example: 'm-quickstop-042' })
  merchant_id: string;

  @ApiProperty({ example: 'Quick Stop' })
  name: string;

  @ApiProperty({ enum: ENVIRONMENTS, description: 'The merchant’s environment' })
  environment: Environment;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, description: 'As its risk profile scores it', example: 80 })
  fraud_score: number;

  @ApiProperty({ enum: RISK_LEVELS, example: 'CRITICAL' })
  risk_level: RiskLevel;

  @ApiProperty({ type: [FraudSignalDto], description: 'The signals that fired, as in its risk profile' })
  signals: FraudSignalDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sales recorded', example: 640 })
  sales: number;
}

/** Over every merchant, whatever the page. */
export class FraudOverviewSummary {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Onboarded merchants', example: 4 })
  merchant_count: number;

  @ApiProperty({ type: RiskLevelCounts, description: 'Merchants by risk level' })
  by_level: Record<RiskLevel, number>;

  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    description: 'Mean fraud score, to 2 decimals; null without merchants',
    example: 36.25,
  })
  mean_score: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Nearest-rank 90th percentile of the fraud scores; null without merchants',
    example: 80,
  })
  p90_score: number | null;
}

@ApiSchema({ name: 'FraudOverview' })
export class GetFraudOverviewResponse extends PageAnswer {
  @AsOfPosition()
  as_of_position: number;

  @ApiProperty({ description: 'Over every merchant, whatever the page' })
  summary: FraudOverviewSummary;

  @ApiProperty({
    type: [RankedMerchant],
    description: 'A page of the merchants, highest score first (so HIGH and CRITICAL first), ties by merchant id',
  })
  merchants: RankedMerchant[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Merchants in all', example: 4 })
  total: number;
}
