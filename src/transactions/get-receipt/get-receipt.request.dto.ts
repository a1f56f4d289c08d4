import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { RECEIPT_FORMATS, type ReceiptFormat } from './receipt';

export class GetReceiptRequest {
  @ApiPropertyOptional({
    enum: RECEIPT_FORMATS,
    default: 'merchant',
    example: 'merchant',
    description:
      '`merchant`: the customer-facing receipt with the rounding disclosure; `audit`: the full record with its chain position, audit hash and fraud score; `pos`: raw cent values only',
  })
  @IsOptional()
  @IsIn(RECEIPT_FORMATS)
  format: ReceiptFormat = 'merchant';
}
