import { ApiProperty } from '@nestjs/swagger';
import type { ReadModelRowDifference } from '../../platform/projections/read-model-check';

export class ReadModelRowDifferenceView implements ReadModelRowDifference {
  @ApiProperty({ description: 'The read model (its projector)', example: 'tips' })
  read_model: string;

  @ApiProperty({ description: 'The table of the read model', example: 'rm_tips' })
  table: string;

  @ApiProperty({
    description: 'The row: its primary key, as `column=value`',
    example: 'tip_id=TIP-2026-11-21-K3V9Q2ZD',
  })
  row: string;

  @ApiProperty({ description: 'A column of the table; `row` when one side has no such row', example: 'amount_cents' })
  field: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'JSON of the value stored; null when the read model has no such row',
    example: '1',
  })
  stored: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'JSON of the value the log gives; null when no entry of the log gives such a row',
    example: '10000000',
  })
  from_log: string | null;
}

export class ReadModelsCheck {
  @ApiProperty({ type: [String], description: 'The read models compared', example: ['api-keys', 'merchants', 'tips'] })
  read_models: string[];

  @ApiProperty({
    type: 'integer',
    description: 'Rows compared: those the log gives, and the stored rows it does not give',
    example: 5120,
  })
  checked_count: number;

  @ApiProperty({ type: 'integer', description: 'Fields that differ, all of them', example: 1 })
  difference_count: number;

  @ApiProperty({
    type: [ReadModelRowDifferenceView],
    description: 'The first 100 differences, by read model, table and row',
  })
  differences: ReadModelRowDifferenceView[];
}
