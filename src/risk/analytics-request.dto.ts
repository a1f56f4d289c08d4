import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { PageRequest } from '../platform/page.request.dto';
import { MinPosition, MinPositionRequest } from '../platform/as-of-position';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../merchants/merchant-id';

/** The analytics are platform views (admin, auditor): every merchant, or the one `merchant_id` names (none matching: empty). */
const OptionalMerchantId = () =>
  applyDecorators(
    ApiPropertyOptional({
      pattern: MERCHANT_ID_PATTERN.source,
      description: 'Only this merchant (an unknown one gives an empty answer); absent: every merchant',
      example: 'm-quickstop-042',
    }),
    IsOptional(),
    IsString(),
    Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE }),
  );

export class MerchantFilterRequest extends MinPositionRequest {
  @OptionalMerchantId()
  merchant_id?: string;
}

/** A list of the analytics paged by `limit` (default 100, at most 1,000) and `offset`. */
export class AnalyticsPageRequest extends PageRequest {
  @MinPosition()
  min_position?: number;
}

/** A merchant filter on a list paged by `limit` (default 100, at most 1,000) and `offset`. */
export class PagedMerchantFilterRequest extends AnalyticsPageRequest {
  @OptionalMerchantId()
  merchant_id?: string;
}
