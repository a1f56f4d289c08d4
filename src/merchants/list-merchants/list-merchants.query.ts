import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { PageRequest } from '../../platform/page.request.dto';
import { MerchantList } from '../merchant.response.dto';

export class ListMerchantsQuery extends Query<MerchantList> {
  constructor(
    readonly page: PageRequest,
    readonly principal: Principal,
  ) {
    super();
  }
}
