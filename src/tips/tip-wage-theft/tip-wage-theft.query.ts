import { Query } from '@nestjs/cqrs';
import { TipWageTheftResponse } from '../tip-wage-theft.response.dto';

export class TipWageTheftQuery extends Query<TipWageTheftResponse> {
  constructor(
    readonly merchantId: string | null,
    readonly minPosition?: number,
  ) {
    super();
  }
}
