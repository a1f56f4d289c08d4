import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { MerchantScope } from '../../auth/merchant-scope';
import { MerchantDirectory } from '../../merchants/merchant-directory';
import { MerchantNotFoundError } from '../../merchants/merchant.errors';
import { MerchantActivities, NO_ACTIVITY } from '../merchant-activities';
import { riskProfile } from '../merchant-score';
import { GetRiskProfileQuery } from './get-risk-profile.query';
import type { GetRiskProfileResponse } from './get-risk-profile.response.dto';

@QueryHandler(GetRiskProfileQuery)
export class GetRiskProfileHandler implements IQueryHandler<GetRiskProfileQuery, GetRiskProfileResponse> {
  constructor(
    private readonly merchants: MerchantDirectory,
    private readonly scope: MerchantScope,
    private readonly activities: MerchantActivities,
    private readonly databases: QueryDatabases,
    private readonly config: AppConfig,
  ) {}

  /** An unknown merchant is a 404; so is one the key may not see, should the route ever admit such keys. */
  async execute(query: GetRiskProfileQuery): Promise<GetRiskProfileResponse> {
    const { merchantId, principal, minPosition } = query;
    const merchant = await this.merchants.find(merchantId);
    if (!merchant || !(await this.scope.canSee(principal, merchantId))) throw new MerchantNotFoundError(merchantId);
    const { activities, as_of_position: asOfPosition } = await this.activities.read(
      (await this.databases.for(query)).db,
      merchantId,
      minPosition,
    );
    const profile = riskProfile(merchantId, activities.get(merchantId) ?? NO_ACTIVITY, this.config.shiftChanges);
    return { ...profile, name: merchant.name, as_of_position: asOfPosition };
  }
}
