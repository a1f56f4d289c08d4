import { ApiProperty } from '@nestjs/swagger';

/** A SHA-256 in lower-case hex, as every hash of the audit log is written. */
export const HASH_PATTERN = '^[0-9a-f]{64}$';

/** A hash of the audit log in an answer: the hash of the entry a record made, or one a proof holds. */
export const HashProperty = ({ description, example }: { description?: string; example: string }) =>
  ApiProperty({ pattern: HASH_PATTERN, description, example });
