import { IsInstant } from '../../platform/instant-range';
import { PagedMerchantFilterRequest } from '../analytics-request.dto';

/** Both dates inclusive; `end_date` as a date alone runs to the end of that day (UTC). */
export class OverrideReportRequest extends PagedMerchantFilterRequest {
  @IsInstant()
  start_date?: string;

  @IsInstant()
  end_date?: string;
}
