import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { MERCHANT_ID_PATTERN, MERCHANT_ID_RULE } from '../../merchants/merchant-id';
import { ENVIRONMENTS, type Environment } from '../principal';
import { ROLES, type Role } from '../roles.decorator';

export class IssueApiKeyRequest {
  @IsIn(ROLES)
  role: Role;

  /** Required for a merchant key, refused for any other. */
  @IsOptional()
  @IsString()
  @Matches(MERCHANT_ID_PATTERN, { message: MERCHANT_ID_RULE })
  merchant_id?: string;

  /** Default: the merchant's for a merchant key, production for any other. */
  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: Environment;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  /** Partner keys only: a replacement key for an existing partner, which keeps that partner's merchants. */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  partner_id?: string;
}
