import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { HashProperty } from '../../platform/openapi/hash-property';
import { RULE_CHOICES, type RuleChoice } from '../../rules/jurisdiction-rule';
import { JurisdictionRuleDto } from '../jurisdiction.response.dto';

/**
 * What the OpenAPI document shows of the body: a whole rule, whose lookup_key the path gives. The
 * fields added after clients were written (`choice`, `last_searched`, `cash_surcharge_barred`) may
 * be left out, meaning null, so a body valid before them stays valid.
 */
export class JurisdictionRuleChange extends OmitType(JurisdictionRuleDto, ['lookup_key', 'choice'] as const) {
  @ApiPropertyOptional({
    description: 'The lookup_key of the path, which it may repeat but not contradict',
    example: 'AL',
  })
  lookup_key?: string;

  @ApiPropertyOptional({
    type: 'string',
    enum: RULE_CHOICES,
    nullable: true,
    description:
      'What the law leaves to the retailer: `either_neighbor`, it may round to either neighbouring multiple of 5 cents; null or absent: the mode decides',
    example: null,
  })
  choice?: RuleChoice | null;
}

export class RuleChangeResponse {
  @ApiProperty({ description: 'The rule version as recorded' })
  rule: JurisdictionRuleDto;

  @HashProperty({
    description: 'SHA-256 hash of the `JurisdictionRuleChanged` entry in the audit log',
    example: '9f2c4e7a1b8d3f60c5e2a9174b6d8e03f1a7c4b92e5d0f68a3c1b7e4d2f9a605',
  })
  auditHash: string;

  @ApiProperty({ type: 'integer', description: 'Position of that entry in the audit log', example: 1205 })
  position: number;
}
