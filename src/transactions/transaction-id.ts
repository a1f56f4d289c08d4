import { newRecordId, recordIdPattern, withNewRecordId } from '../platform/ids';

/** The spec's `TXN-YYYY-MM-DD-XXXXXXXX`. */
export const TRANSACTION_ID_PATTERN = recordIdPattern('TXN');

/** The date is the record's UTC date; a clash is drawn again. */
export const withNewTransactionId = <T>(at: Date, record: (transactionId: string) => Promise<T>) => withNewRecordId('TXN', at, record);

/** An override is a record of its own, not a transaction: `OVR-YYYY-MM-DD-XXXXXXXX`. */
export const newOverrideId = (at: Date) => newRecordId('OVR', at);
