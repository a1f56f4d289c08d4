import { ApiProperty } from '@nestjs/swagger';

/** A rule the service enforces in code, with the law or regulation it comes from. */
export class EnforcedRule {
  @ApiProperty({ example: '7 CFR 278.2' })
  citation: string;

  @ApiProperty({ example: 'EBT tenders are never rounded' })
  rule: string;
}

/** Injection token for the `EnforcedRule[]` that `/health` reports; the root module provides it. */
export const ENFORCED_RULES = Symbol('ENFORCED_RULES');
