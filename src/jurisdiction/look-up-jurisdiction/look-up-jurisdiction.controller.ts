import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { ZIP_CODE } from '../../rules/jurisdiction-resolver';
import { JurisdictionLookupQuery, ListJurisdictionsQuery } from './look-up-jurisdiction.query';
import { ListRulesQuery, OnDateQuery } from './look-up-jurisdiction.request.dto';
import { JurisdictionLookup, RuleList } from './look-up-jurisdiction.response.dto';

const RESOLVED =
  'The answer is the applied rule in full, the location as the data knows it, the hierarchy of places down to federal with ' +
  'every rule of each (and why each but one does not apply), and any warnings. Only an enacted retail rounding rule in force ' +
  'on `date` applies, the most local one; where none does, the federal rule does.';
const STATE_NOT_FOUND = { NOT_FOUND: 'No jurisdiction data for the state' };
const STATE_PARAM = { name: 'state', description: 'Two-letter state code, in any case', example: 'AL' };
const COUNTY_PARAM = {
  name: 'county',
  description:
    'County name, in any case, with or without accents or its type word ("Maricopa", "maricopa county"; "St."/"Saint" alike). ' +
    'An independent city needs its " city" only where a county shares its name ("Baltimore city"). A county the ZIP data does not know adds the warning `UNKNOWN_COUNTY`',
  example: 'Jefferson',
};

/**
 * Read-only lookups, open to any valid key. `zip/:zip_code` never reaches `:state/:county`: the
 * router matches a static segment before a parameter, whatever the registration order.
 */
@ApiTags('Jurisdictions')
@Controller()
@Roles('merchant', 'auditor', 'admin', 'partner')
export class LookUpJurisdictionController {
  constructor(private readonly queries: QueryBus) {}

  @Get('jurisdiction/zip/:zip_code')
  @ApiOperation({
    operationId: 'getJurisdictionByZip',
    summary: 'The cash rounding rule of a ZIP code, with its city, county, state and federal hierarchy',
    description: `The ZIP's city, county and state come from the ZIP data. ${RESOLVED}`,
  })
  @ApiParam({
    name: 'zip_code',
    description: 'A 5-digit ZIP code; ZIP+4 is refused',
    schema: { type: 'string', pattern: ZIP_CODE.source, example: '35203' },
  })
  @ApiOkResponse({ type: JurisdictionLookup, description: 'The applied rule, with where and why it was chosen' })
  @ApiErrors({ 404: { NOT_FOUND: 'The ZIP code is not in the ZIP data' } })
  byZip(@Param('zip_code') zip: string, @Query() { date }: OnDateQuery): Promise<JurisdictionLookup> {
    return this.queries.execute(new JurisdictionLookupQuery({ zip }, date));
  }

  @Get('jurisdiction/:state')
  @ApiOperation({
    operationId: 'getJurisdictionByState',
    summary: 'The cash rounding rule of a state',
    description: `The state rule, else the federal one. ${RESOLVED}`,
  })
  @ApiParam(STATE_PARAM)
  @ApiOkResponse({ type: JurisdictionLookup, description: 'The applied rule, with where and why it was chosen' })
  @ApiErrors({ 404: STATE_NOT_FOUND })
  byState(@Param('state') state: string, @Query() { date }: OnDateQuery): Promise<JurisdictionLookup> {
    return this.queries.execute(new JurisdictionLookupQuery({ state }, date));
  }

  @Get('jurisdiction/:state/:county')
  @ApiOperation({
    operationId: 'getJurisdictionByCounty',
    summary: 'The cash rounding rule of a county',
    description: `The county rule, else the state rule, else the federal one. ${RESOLVED}`,
  })
  @ApiParam(STATE_PARAM)
  @ApiParam(COUNTY_PARAM)
  @ApiOkResponse({ type: JurisdictionLookup, description: 'The applied rule, with where and why it was chosen' })
  @ApiErrors({ 404: STATE_NOT_FOUND })
  byCounty(
    @Param('state') state: string,
    @Param('county') county: string,
    @Query() { date }: OnDateQuery,
  ): Promise<JurisdictionLookup> {
    return this.queries.execute(new JurisdictionLookupQuery({ state, county }, date));
  }

  @Get('jurisdiction/:state/:county/:city')
  @ApiOperation({
    operationId: 'getJurisdictionByCity',
    summary: 'The cash rounding rule of a city',
    description: `The city rule, else the county rule, else the state rule, else the federal one. ${RESOLVED}`,
  })
  @ApiParam(STATE_PARAM)
  @ApiParam(COUNTY_PARAM)
  @ApiParam({
    name: 'city',
    description:
      'City name within its county, in any case, with or without accents, spaces or punctuation ("St. Louis", "saint louis")',
    example: 'Birmingham',
  })
  @ApiOkResponse({ type: JurisdictionLookup, description: 'The applied rule, with where and why it was chosen' })
  @ApiErrors({ 404: STATE_NOT_FOUND })
  byCity(
    @Param('state') state: string,
    @Param('county') county: string,
    @Param('city') city: string,
    @Query() { date }: OnDateQuery,
  ): Promise<JurisdictionLookup> {
    return this.queries.execute(new JurisdictionLookupQuery({ state, county, city }, date));
  }

  @Get('jurisdictions')
  @ApiOperation({
    operationId: 'listJurisdictions',
    summary: 'Every jurisdiction rule: enacted, pending, proposed, failed and none',
    description:
      'Every recorded version of every rule, whether it applies or not, optionally filtered by status, state and staleness (as of today, UTC).',
  })
  @ApiOkResponse({ type: RuleList, description: 'The rules, with their count' })
  list(@Query() filter: ListRulesQuery): Promise<RuleList> {
    return this.queries.execute(new ListJurisdictionsQuery(filter));
  }
}
