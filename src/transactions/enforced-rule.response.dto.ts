import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { EnforcedRule } from '../rules/rounding-engine';

/** A rule the service enforces in code: a sale's tender exemption cites one, and /health lists them all. */
@ApiSchema({ name: 'EnforcedRule' })
export class EnforcedRuleDto implements EnforcedRule {
  @ApiProperty({ example: '7 CFR 278.2' })
  citation: string;

  @ApiProperty({ example: 'EBT tenders are never rounded' })
  rule: string;
}
