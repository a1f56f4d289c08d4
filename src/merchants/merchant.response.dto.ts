import { ApiProperty } from '@nestjs/swagger';
import { ENVIRONMENTS, type Environment } from '../platform/identity/principal';
import { PageAnswer } from '../platform/page.request.dto';
import type { MerchantRecord } from './merchant-directory';
import { MERCHANT_ID_PROPERTY } from './merchant-id';

export class MerchantResponse {
  @ApiProperty(MERCHANT_ID_PROPERTY)
  merchant_id: string;

  @ApiProperty({ example: 'Corner Deli' })
  name: string;

  @ApiProperty({ enum: ENVIRONMENTS, example: 'production' })
  environment: Environment;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The partner that onboarded the merchant and may act for it; null when an admin onboarded it',
    example: 'key_7Qm2VxR9tLp4Kd8Nw3Zb',
  })
  partner_id: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T14:03:27.512Z' })
  onboarded_at: string;
}

export class OnboardedMerchant {
  @ApiProperty()
  merchant: MerchantResponse;
}

export class MerchantList extends PageAnswer {
  @ApiProperty({ type: [MerchantResponse], description: 'Oldest first' })
  merchants: MerchantResponse[];
}

export function toMerchantResponse(merchant: MerchantRecord): MerchantResponse {
  return {
    merchant_id: merchant.merchantId,
    name: merchant.name,
    environment: merchant.environment,
    partner_id: merchant.partnerId,
    onboarded_at: merchant.onboardedAt,
  };
}
