import { newRecordId, recordIdPattern, withNewRecordId } from '../platform/ids';

export const TRANSACTION_ID_PREFIX = 'TXN';

/** The spec's `TXN-YYYY-MM-DD-XXXXXXXX`. */
export const TRANSACTION_ID_PATTERN = recordIdPattern(TRANSACTION_ID_PREFIX);

/** The date is the record's UTC date; a clash is drawn again. */
export const withNewTransactionId = <T>(at: Date, record: (transactionId: string) => Promise<T>) =>
  withNewRecordId(TRANSACTION_ID_PREFIX, at, record);

/** An override is a record of its own, not a transaction: `OVR-YYYY-MM-DD-XXXXXXXX`. */
export const newOverrideId = (at: Date) => newRecordId('OVR', at);
