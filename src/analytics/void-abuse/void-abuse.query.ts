import { Query } from '@nestjs/cqrs';
import type { FraudSignal } from '../../fraud/fraud-signals';
import type { VoidSignalCode } from '../../fraud/void-analysis';

/** A void-abuse signal of a merchant, with the records it rests on. */
export type VoidAbuseFlag = { merchant_id: string; code: VoidSignalCode } & Omit<FraudSignal, 'code'> & {
    /** The ids of the VOID or REFUND records, newest first, at most EVIDENCE_LIMIT; `count` is how many there are. */
    evidence: { record_type: 'VOID' | 'REFUND'; ids: string[]; count: number };
  };

export interface VoidAbuseResponse {
  merchant_id: string | null;
  as_of_position: number;
  shift_change: { hours: number[]; window_minutes: number };
  flag_count: number;
  /** Most points first. */
  flags: VoidAbuseFlag[];
}

export class VoidAbuseQuery extends Query<VoidAbuseResponse> {
  constructor(readonly merchantId: string | null) {
    super();
  }
}
