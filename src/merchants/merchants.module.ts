import { Module } from '@nestjs/common';
import { CommandModule } from '../platform/command.module';
import { MerchantDirectory } from './merchant-directory';
import { ListMerchantsController } from './list-merchants/list-merchants.controller';
import { ListMerchantsHandler } from './list-merchants/list-merchants.handler';
import { OnboardMerchantController } from './onboard-merchant/onboard-merchant.controller';
import { OnboardMerchantHandler } from './onboard-merchant/onboard-merchant.handler';

/** Merchant onboarding (`POST /admin/merchants`) and the `rm_merchants` lookups other features need. */
@Module({
  controllers: [OnboardMerchantController, ListMerchantsController],
  imports: [CommandModule],
  providers: [MerchantDirectory, OnboardMerchantHandler, ListMerchantsHandler],
  exports: [MerchantDirectory],
})
export class MerchantsModule {}
