import { Module } from '@nestjs/common';
import { CommandModule } from '../platform/command.module';
import { MerchantDirectory } from './merchant-directory';
import { MerchantsController } from './merchants.controller';
import { OnboardMerchantHandler } from './onboard-merchant/onboard-merchant.handler';

/** Merchant onboarding (`POST /admin/merchants`) and the `rm_merchants` lookups other features need. */
@Module({
  controllers: [MerchantsController],
  imports: [CommandModule],
  providers: [MerchantDirectory, OnboardMerchantHandler],
  exports: [MerchantDirectory],
})
export class MerchantsModule {}
