import { ApiProperty } from '@nestjs/swagger';
import { PageAnswer } from '../platform/page.request.dto';
import { MERCHANT_ID_PROPERTY } from '../merchants/merchant-id';
import type { ApiKeyRecord } from './api-key-directory';
import { ISSUED_KEY_FORMAT } from './api-key-secret';
import { ENVIRONMENTS, type Environment, ROLES, type Role } from '../platform/identity/principal';

const KEY_ID_EXAMPLE = 'key_4fT9qLm2Xv8RbN3kWc7P';

/** The admin API's view of a key: no raw key and no hash, ever. */
export class ApiKeyResponse {
  @ApiProperty({
    description: "The key's id (not the key itself): what `DELETE /admin/api-keys/{id}` takes",
    example: KEY_ID_EXAMPLE,
  })
  id: string;

  @ApiProperty({ enum: ROLES, example: 'merchant' })
  role: Role;

  @ApiProperty({
    ...MERCHANT_ID_PROPERTY,
    nullable: true,
    description: 'The merchant a merchant key acts for; null for every other role',
  })
  merchant_id: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "Partner keys only: the partner the key acts as (the id of the partner's first key); null for every other role",
    example: null,
  })
  partner_id: string | null;

  @ApiProperty({
    enum: ENVIRONMENTS,
    description:
      "A merchant key is of its merchant's environment. The hourly rate limit is per key and depends on it (by default 1,000 requests in sandbox, 10,000 in production)",
    example: 'production',
  })
  environment: Environment;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'A label for people, as given at issue',
    example: 'Till 3',
  })
  name: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T14:05:10.204Z' })
  created_at: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'null while the key is active',
    example: null,
  })
  revoked_at: string | null;
}

export class IssuedApiKey {
  @ApiProperty({
    description:
      'The raw key, to send as `x-api-key`: shown in this answer only, stored nowhere (only its SHA-256 hash is kept). ' +
      '`svc_partner_` and 32 letters or digits for a partner key, `svc_` and 32 for any other',
    pattern: ISSUED_KEY_FORMAT.source,
    example: 'svc_Z8k2Lq9TmV4xN7bR1cW5pH3dJ6fY0gSa',
  })
  key: string;

  @ApiProperty()
  api_key: ApiKeyResponse;
}

export class ApiKeyList extends PageAnswer {
  @ApiProperty({ type: [ApiKeyResponse], description: 'Oldest first, revoked keys included' })
  api_keys: ApiKeyResponse[];
}

export class RevokedApiKey {
  @ApiProperty()
  api_key: ApiKeyResponse;
}

export function toApiKeyResponse(key: ApiKeyRecord): ApiKeyResponse {
  return {
    id: key.id,
    role: key.role,
    merchant_id: key.merchantId,
    partner_id: key.partnerId,
    environment: key.environment,
    name: key.name,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}
