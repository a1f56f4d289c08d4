/**
 * Something found the log itself not to be what it was: a verification break, a signing the
 * signer refused, a witness's refusal. Recorded in the log like any other state change, so that
 * what is told outside (the `chain.alarm` webhook) is what the log holds. A type string, once
 * stored, is never renamed.
 */
export interface ChainAlarm {
  /** Who found it: `signer` (a refused signing), `verification` (GET /admin/verify-hash-chain), or another check. */
  source: string;
  /** What was found, as the finder names it: `modified`, `deleted`, `reordered`, `inserted`… */
  kind: string;
  /** Where, when the finder can say. */
  position: number | null;
  /** For people. */
  detail: string;
}

export type ChainAlarmRaisedData = ChainAlarm & { raised_at: string };

export interface ChainAlarmRaised {
  type: 'ChainAlarmRaised';
  data: ChainAlarmRaisedData;
}

export const CHAIN_ALARM_RAISED: ChainAlarmRaised['type'] = 'ChainAlarmRaised';

/**
 * One stream per alarm, named by who found what where (its detail may differ: a later verification
 * covers more entries): the same alarm raised again (by a second process, or the next verification of
 * the same broken log) finds its stream taken and is recorded once.
 */
export const chainAlarmStream = (fingerprint: string) => `chainAlarm-${fingerprint}`;
