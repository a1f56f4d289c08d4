import { Query } from '@nestjs/cqrs';
import { VoidAbuseResponse } from './void-abuse.response.dto';

export class VoidAbuseQuery extends Query<VoidAbuseResponse> {
  constructor(
    readonly merchantId: string | null,
    readonly minPosition?: number,
  ) {
    super();
  }
}
