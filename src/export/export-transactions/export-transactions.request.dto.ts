import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsInstant } from '../../platform/instant-range';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TENDER_TYPES, type TenderType } from '../../rules/rounding-engine';
import { COMPLIANCE_STATUSES, type ComplianceStatus } from '../../transactions/transaction.events';
import { EXPORT_COLUMNS, EXPORT_MODES, type ExportMode } from './export-columns';

const columnCounts = EXPORT_MODES.map((mode) => `\`${mode}\` ${EXPORT_COLUMNS[mode].length}`).join(', ');

/** `POST /export`: every field optional; an empty body exports the key's transactions in `standard` mode. */
export class ExportTransactionsRequest {
  @ApiPropertyOptional({
    enum: EXPORT_MODES,
    default: 'standard',
    description: `Which columns (docs/export.md lists them): ${columnCounts}. \`standard\` is for regulators, \`full\` is every field, \`summary\` the key fields`,
  })
  @IsOptional()
  @IsIn(EXPORT_MODES)
  export_mode: ExportMode = 'standard';

  @IsInstant()
  start_date?: string;

  @IsInstant()
  end_date?: string;

  @ApiPropertyOptional({ enum: TENDER_TYPES, description: 'Only transactions of this payment method; absent: all' })
  @IsOptional()
  @IsIn(TENDER_TYPES)
  payment_method?: TenderType;

  @ApiPropertyOptional({
    enum: COMPLIANCE_STATUSES,
    description: 'Only transactions of this compliance status; absent: all',
  })
  @IsOptional()
  @IsIn(COMPLIANCE_STATUSES)
  compliance_status?: ComplianceStatus;

  /** Merchant keys: their own only. Auditor and admin keys: one merchant, or every one when absent. */
  @ApiPropertyOptional({
    pattern: MERCHANT_ID_PATTERN.source,
    description:
      'Merchant keys: their own only (another merchant is a 403), and absent means their own. Auditor and admin keys: this ' +
      'merchant (an unknown one gives the header alone), or every merchant when absent',
    example: 'm-quickstop-042',
  })
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;
}
