import { recordIdPattern } from '../platform/ids';

/** Ids of the tip feature's records, `<PREFIX>-YYYY-MM-DD-XXXXXXXX` (src/platform/ids.ts). */
export const TIP_ID_PREFIX = {
  tip: 'TIP',
  adjustment: 'TIPADJ',
  pool: 'POOL',
  payout: 'PAYOUT',
  creditCheck: 'TIPCHECK',
} as const;

export const TIP_ID_PATTERN = recordIdPattern(TIP_ID_PREFIX.tip);
export const POOL_ID_PATTERN = recordIdPattern(TIP_ID_PREFIX.pool);
