import { Query } from '@nestjs/cqrs';
import type { PlaceQuery } from '../../rules/jurisdiction-resolver';
import type { ListRulesQuery } from './look-up-jurisdiction.request.dto';
import { JurisdictionLookup, RuleList } from './look-up-jurisdiction.response.dto';

/** The rule of a ZIP code or of a named place, on `date` (default: today, UTC). */
export class JurisdictionLookupQuery extends Query<JurisdictionLookup> {
  constructor(
    readonly place: { zip: string } | PlaceQuery,
    readonly date: string | undefined,
  ) {
    super();
  }
}

export class ListJurisdictionsQuery extends Query<RuleList> {
  constructor(readonly filter: ListRulesQuery) {
    super();
  }
}
