import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_PROPERTY, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { ENVIRONMENTS, type Environment, ROLES, type Role } from '../../platform/identity/principal';

const NAME_LENGTH = { min: 1, max: 100 } as const;
const PARTNER_ID_LENGTH = { min: 1, max: 64 } as const;

export class IssueApiKeyRequest {
  @ApiProperty({ enum: ROLES, description: 'A partner key may issue `merchant` keys only', example: 'merchant' })
  @IsIn(ROLES)
  role: Role;

  /** Required for a merchant key, refused for any other. */
  @ApiPropertyOptional({
    ...MERCHANT_ID_PROPERTY,
    description:
      'Required for a merchant key (the merchant it acts for, already onboarded), refused for any other role',
  })
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;

  /** Default: the merchant's for a merchant key, production for any other. */
  @ApiPropertyOptional({
    enum: ENVIRONMENTS,
    description:
      "Default: the merchant's environment for a merchant key (any other is refused), `production` for any other role",
    example: 'sandbox',
  })
  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: Environment;

  @ApiPropertyOptional({
    minLength: NAME_LENGTH.min,
    maxLength: NAME_LENGTH.max,
    description: 'A label for people',
    example: 'Till 3',
  })
  @IsOptional()
  @IsString()
  @Length(NAME_LENGTH.min, NAME_LENGTH.max)
  name?: string;

  /** Partner keys only: a replacement key for an existing partner, which keeps that partner's merchants. */
  @ApiPropertyOptional({
    minLength: PARTNER_ID_LENGTH.min,
    maxLength: PARTNER_ID_LENGTH.max,
    description:
      "Partner keys only, refused for any other role: issues a replacement key for this existing partner, which keeps the partner's merchants. Without it a partner key starts a new partner",
    example: 'key_7Qm2VxR9tLp4Kd8Nw3Zb',
  })
  @IsOptional()
  @IsString()
  @Length(PARTNER_ID_LENGTH.min, PARTNER_ID_LENGTH.max)
  partner_id?: string;
}
