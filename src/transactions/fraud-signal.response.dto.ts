import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  FRAUD_SIGNAL_CODES,
  MAX_FRAUD_SCORE,
  RISK_LEVELS,
  type FraudAssessment,
  type FraudSignal,
  type FraudSignalCode,
  type RiskLevel,
} from '../rules/fraud-signals';

@ApiSchema({ name: 'FraudSignal' })
export class FraudSignalDto implements FraudSignal {
  @ApiProperty({
    enum: FRAUD_SIGNAL_CODES,
    description: 'Which signal fired; docs/fraud-scoring.md describes each',
    example: 'ROUND_UP_BIAS',
  })
  code: FraudSignalCode;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'What it adds to the score: the points of the highest tier its measure reached',
    example: 40,
  })
  points: number;

  @ApiProperty({
    description: 'What was measured, for people',
    example: "41 of the merchant's last 50 directional cash roundings went up (z = 4.53)",
  })
  detail: string;
}

/** The score part of a risk profile (a base class: not a schema of its own). */
export class FraudAssessmentDto implements FraudAssessment {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_FRAUD_SCORE,
    description: `The points of the signals that fired, added up and capped at ${MAX_FRAUD_SCORE}; 0: no detected risk`,
    example: 40,
  })
  fraud_score: number;

  @ApiProperty({
    enum: RISK_LEVELS,
    description: 'From the score: 0 NONE, below 25 LOW, below 50 MEDIUM, below 75 HIGH, else CRITICAL',
    example: 'MEDIUM',
  })
  risk_level: RiskLevel;

  @ApiProperty({ type: [FraudSignalDto], description: 'The signals that fired, in the order they are checked' })
  signals: FraudSignalDto[];
}
