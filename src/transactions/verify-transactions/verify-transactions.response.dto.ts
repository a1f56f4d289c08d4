import { ApiProperty } from '@nestjs/swagger';
import type { RowDifference } from '../read-model/row-differences';

export class ReadModelDifference implements RowDifference {
  @ApiProperty({ example: 'TXN-2026-11-21-VMYZY8D2' })
  transaction_id: string;

  @ApiProperty({ type: 'integer', description: 'The position of the entry that recorded the transaction', example: 4 })
  position: number;

  @ApiProperty({
    description:
      'A column of rm_transactions, or a path into its `detail` or `history`; `row` when one side has no such transaction',
    example: 'detail.calculation.cash_total_cents',
  })
  field: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'JSON of the value stored; null when the read model has no such row or field',
    example: '1105',
  })
  stored: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'JSON of the value the log gives; null when the log has no such transaction or field',
    example: '1100',
  })
  from_log: string | null;
}

export class ReadModelCheck {
  @ApiProperty({
    type: 'integer',
    description: 'Transactions compared: those the log records, and the rows no entry of the log records',
    example: 1204,
  })
  checked_count: number;

  @ApiProperty({ type: 'integer', description: 'Fields that differ, all of them', example: 1 })
  difference_count: number;

  @ApiProperty({ type: [ReadModelDifference], description: 'The first 100 differences, by position' })
  differences: ReadModelDifference[];
}
