import { IsIn, IsOptional } from 'class-validator';
import { RECEIPT_FORMATS, type ReceiptFormat } from './receipt';

export class GetReceiptRequest {
  @IsOptional()
  @IsIn(RECEIPT_FORMATS)
  format: ReceiptFormat = 'merchant';
}
