import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { EnforcedRule } from '../rules/rounding-engine';

@ApiSchema({ name: 'EnforcedRule' })
export class EnforcedRuleDto implements EnforcedRule {
  @ApiProperty({ example: '7 CFR 278.2' })
  citation: string;

  @ApiProperty({ example: 'EBT tenders are never rounded' })
  rule: string;
}

/** Injection token for the `EnforcedRule[]` that `/health` reports; the root module provides it. */
export const ENFORCED_RULES = Symbol('ENFORCED_RULES');
