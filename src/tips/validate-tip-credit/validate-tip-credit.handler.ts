import { Inject } from '@nestjs/common';
import { CommandStep } from '../../platform/command-step';
import { eventMetadata } from '../../platform/identity/command-context';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InvalidFieldError } from '../../platform/errors/request.errors';
import { Clock } from '../../platform/clock';
import { dollarsToCents } from '../../rules/money';
import { SEED_DATA } from '../../jurisdiction/jurisdiction.tokens';
import type { SeedData } from '../../rules/seed-data';
import { FEDERAL, tipCreditRuleOn, tipCreditRulesAt, type TipPlace } from '../../rules/tip-credit';
import { tipCreditCheckDecider } from '../tip.decider';
import { tipCreditCheckStream, type TipCreditCheckedData } from '../tip.events';
import { TIP_ID_PREFIX } from '../tip-ids';
import { TipMerchants } from '../tip-merchants';
import { creditCheckView } from '../tip-views';
import { ValidateTipCreditCommand } from './validate-tip-credit.command';
import type { ValidateTipCreditResponse } from './validate-tip-credit.response.dto';

/**
 * Checks against the seed's FLSA entry, the state's (each region's, when the state has regions and no county
 * was named) and a city's or county's own, and records the check: what an employer
 * declared about a wage stays in the audit trail, and a wage plus tips under the federal minimum
 * shows in GET /analytics/tip-wage-theft. A fraction of a cent in the wage or tips is dropped, so
 * that it can never carry a wage over a minimum.
 */
@CommandHandler(ValidateTipCreditCommand)
export class ValidateTipCreditHandler implements ICommandHandler<ValidateTipCreditCommand, ValidateTipCreditResponse> {
  constructor(
    @Inject(SEED_DATA) private readonly seeds: SeedData,
    private readonly clock: Clock,
    private readonly merchants: TipMerchants,
    private readonly step: CommandStep,
  ) {}

  async execute({ request, context, idempotency }: ValidateTipCreditCommand): Promise<ValidateTipCreditResponse> {
    const merchantId = await this.merchants.actingFor(context.principal, request.merchant_id);
    const state = request.state.toUpperCase();
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const place = this.placeOf(state, request);
    const applied = tipCreditRulesAt(this.seeds.tipCreditRules, place, today);
    if (!applied)
      throw new InvalidFieldError('state', `state ${state} is not a U.S. state or territory with tip credit rules`);
    const { city, county } = place;
    return this.step.runNew(
      TIP_ID_PREFIX.creditCheck,
      now,
      (checkId) => {
        const command = {
          kind: 'CheckTipCredit' as const,
          check_id: checkId,
          merchant_id: merchantId,
          employee_id: request.employee_id ?? null,
          state,
          ...(city === undefined ? {} : { city }),
          ...(county === undefined ? {} : { county }),
          ...(request.zip_code === undefined ? {} : { zip_code: request.zip_code }),
          hourly_wage_cents: dollarsToCents(request.hourly_wage, 'hourly_wage', 'down'),
          average_tips_per_hour_cents: dollarsToCents(request.average_tips_per_hour, 'average_tips_per_hour', 'down'),
          rules: { federal: tipCreditRuleOn(this.seeds.tipCreditRules, FEDERAL, today)!, ...applied },
          now: now.toISOString(),
        };
        return {
          stream: tipCreditCheckStream(checkId),
          decider: tipCreditCheckDecider,
          command,
          metadata: eventMetadata(context, merchantId),
          idempotency,
        };
      },
      (_tx, [checked]) => ({
        success: true,
        compliance: creditCheckView(checked.data as TipCreditCheckedData, checked),
      }),
    );
  }

  /** A ZIP gives the county and city (over any sent), and must lie in the state checked. */
  private placeOf(state: string, { zip_code: zipCode, county, city }: ValidateTipCreditCommand['request']): TipPlace {
    if (zipCode === undefined)
      return { state, ...(county === undefined ? {} : { county }), ...(city === undefined ? {} : { city }) };
    const zip = this.seeds.zips.get(zipCode);
    if (!zip)
      throw new InvalidFieldError('zip_code', `ZIP ${zipCode} is not in the ZIP data; send county and city instead`);
    if (zip.state !== state)
      throw new InvalidFieldError('zip_code', `ZIP ${zipCode} is in ${zip.state}, not in ${state}`);
    return { state, county: zip.county, city: zip.city };
  }
}
