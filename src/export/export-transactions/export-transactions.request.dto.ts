import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsInstant } from '../../common/instant-range';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { TENDER_TYPES, type TenderType } from '../../rounding/rounding-engine';
import { COMPLIANCE_STATUSES, type ComplianceStatus } from '../../transactions/transaction.events';
import { EXPORT_MODES, type ExportMode } from './export-columns';

/** `POST /export`: every field optional; an empty body exports the key's transactions in `standard` mode. */
export class ExportTransactionsRequest {
  @IsOptional()
  @IsIn(EXPORT_MODES)
  export_mode: ExportMode = 'standard';

  @IsInstant()
  start_date?: string;

  @IsInstant()
  end_date?: string;

  @IsOptional()
  @IsIn(TENDER_TYPES)
  payment_method?: TenderType;

  @IsOptional()
  @IsIn(COMPLIANCE_STATUSES)
  compliance_status?: ComplianceStatus;

  /** Merchant keys: their own only. Auditor and admin keys: one merchant, or every one when absent. */
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;
}
