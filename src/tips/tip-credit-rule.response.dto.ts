import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CONFIDENCES, SOURCE_KINDS, type Confidence, type SourceKind } from '../rules/jurisdiction-rule';
import type { TipCreditRule } from '../rules/seed-data';

@ApiSchema({ name: 'TipCreditRule' })
export class TipCreditRuleDto implements TipCreditRule {
  @ApiProperty({ type: 'string', description: 'A state’s code, or `US` for FLSA', example: 'TX' })
  state: string;

  @ApiProperty({
    type: 'string',
    required: false,
    description:
      'Only on a region’s entry: the part of the state whose own law sets other figures; it replaces the statewide figures in its `counties`',
    example: 'New York City, Long Island and Westchester',
  })
  region?: string;

  @ApiProperty({
    type: [String],
    required: false,
    description: 'Only on a region’s entry: its counties',
    example: ['New York', 'Kings', 'Nassau'],
  })
  counties?: string[];

  @ApiProperty({
    type: 'string',
    required: false,
    description: 'Only on a county’s own rule (Montgomery County’s), which applies beside its state’s',
    example: 'Montgomery',
  })
  county?: string;

  @ApiProperty({
    type: 'string',
    required: false,
    description: 'Only on a city’s own rule (Chicago’s), which applies beside its state’s',
    example: 'Chicago',
  })
  city?: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Dollars an hour; null where the seed data has no figure',
    example: 7.25,
  })
  minimum_wage: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Dollars an hour; null where the seed data has no figure',
    example: 2.13,
  })
  tipped_minimum_cash_wage: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Dollars an hour; null where the seed data has no figure',
    example: 5.12,
  })
  max_tip_credit: number | null;

  @ApiProperty({ type: 'boolean', nullable: true, description: 'null where the seed data does not say', example: true })
  tip_credit_allowed: boolean | null;

  @ApiProperty({
    type: 'string',
    example: 'State adopts federal minimum; the federal scheme applies ($2.13 cash, $5.12 max credit).',
  })
  notes: string;

  @ApiProperty({ type: 'string', format: 'date', nullable: true, example: '2009-07-24' })
  effective_date: string | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', example: 'https://www.dol.gov/agencies/whd/state/minimum-wage/tipped' },
    description: 'Where the figures come from',
  })
  source: string[];

  @ApiProperty({
    enum: SOURCE_KINDS,
    description:
      'The strongest source behind the figures: official text (`statute`, `regulation`, `agency_guidance`, `bill_text`) or not',
    example: 'agency_guidance',
  })
  source_kind: SourceKind;

  @ApiProperty({
    enum: CONFIDENCES,
    description:
      'How sure the record is: `high` only on official text read; `low` where a figure rests on news or a vendor, or could not be settled',
    example: 'medium',
  })
  confidence: Confidence;

  @ApiProperty({
    type: 'string',
    format: 'date',
    description: 'When the record was last checked against its sources',
    example: '2026-11-29',
  })
  last_verified: string;
}
