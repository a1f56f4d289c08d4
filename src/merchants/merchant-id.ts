import type { ApiPropertyOptions } from '@nestjs/swagger';

/** Merchant ids go into stream ids, URLs and CSV exports: a conservative alphabet keeps them safe in all three. */
export const MERCHANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
export const MERCHANT_ID_RULE =
  'merchant_id must be 1 to 64 letters, digits or _ . : - and start with a letter or digit';

/** How the OpenAPI document states MERCHANT_ID_PATTERN: `@ApiProperty(MERCHANT_ID_PROPERTY)` beside its `@Matches`. */
export const MERCHANT_ID_PROPERTY: ApiPropertyOptions = {
  type: 'string',
  pattern: MERCHANT_ID_PATTERN.source,
  description: '1 to 64 letters, digits or `_ . : -`, starting with a letter or digit',
  example: 'm-corner-deli-01',
};
