import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { PageRequest } from '../../platform/page.request.dto';
import { ApiKeyList } from '../api-key.response.dto';

export class ListApiKeysQuery extends Query<ApiKeyList> {
  constructor(
    readonly page: PageRequest,
    readonly principal: Principal,
  ) {
    super();
  }
}
