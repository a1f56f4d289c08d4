import { Query } from '@nestjs/cqrs';
import type { WageTheftFlag } from '../../../projections/tips/tip-analytics';

export interface TipWageTheftResponse {
  merchant_id: string | null;
  as_of: string;
  /** Tips recorded and pools created before this were due by now. */
  due_before: string;
  payout_grace_days: number;
  flag_count: number;
  flags: WageTheftFlag[];
}

export class TipWageTheftQuery extends Query<TipWageTheftResponse> {
  constructor(readonly merchantId: string | null) {
    super();
  }
}
