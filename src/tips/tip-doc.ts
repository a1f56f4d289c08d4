// How the OpenAPI document shows the fields the tip answers share (tip.response.dto.ts and the analytics' answers).
import { ApiProperty } from '@nestjs/swagger';
import { recordIdPattern } from '../platform/ids';
import { HashProperty } from '../platform/openapi/hash-property';
import { POOL_ID_PATTERN } from './tip-ids';
import { POOL_METHODS } from './tip.events';

const AUDIT_HASH_EXAMPLE = '9c4e1b7a2f3d5c6e8a0b1d2f4e6a8c0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a1c';
const EXAMPLE_TIME = '2026-11-21T21:47:05.118Z';
export const TIP_ID_EXAMPLE = 'TIP-2026-11-21-7K3M9QXA';
export const POOL_ID_EXAMPLE = 'POOL-2026-11-21-3QH7Z2MC';
const MERCHANT_ID_EXAMPLE = 'm-corner-deli-01';

const AuditHash = (description: string) => HashProperty({ description, example: AUDIT_HASH_EXAMPLE });
const ChainPosition = () =>
  ApiProperty({ type: 'integer', minimum: 1, description: "That entry's position in the audit chain", example: 1207 });
const MerchantId = () => ApiProperty({ type: 'string', example: MERCHANT_ID_EXAMPLE });
const Instant = (example = EXAMPLE_TIME, description?: string) =>
  ApiProperty({ type: 'string', format: 'date-time', description, example });
const Cents = (example: number, description?: string) => ApiProperty({ type: 'integer', description, example });
const RecordId = (prefix: string, example: string, description?: string) =>
  ApiProperty({ type: 'string', pattern: recordIdPattern(prefix).source, description, example });
/** A pool's own fields, as the new pool, its distribution and the analytics' pool summaries show them. */
const PoolId = () => ApiProperty({ type: 'string', pattern: POOL_ID_PATTERN.source, example: POOL_ID_EXAMPLE });
const PoolName = () => ApiProperty({ type: 'string', example: 'Saturday dinner shift' });
const DistributionMethod = () => ApiProperty({ enum: POOL_METHODS, example: 'equal' });

export const TipDoc = {
  AuditHash,
  ChainPosition,
  MerchantId,
  Instant,
  Cents,
  RecordId,
  PoolId,
  PoolName,
  DistributionMethod,
  EXAMPLE_TIME,
};

/** The `success` of every tip answer: a refusal answers with an error status and an ErrorBody instead. */
export const TipSuccess = () =>
  ApiProperty({ type: 'boolean', enum: [true], description: 'Always true', example: true });
