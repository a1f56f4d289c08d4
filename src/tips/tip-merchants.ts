import { Injectable } from '@nestjs/common';
import { MerchantScope } from '../auth/merchant-scope';
import type { Principal } from '../platform/identity/principal';
import type { DomainError } from '../platform/errors/domain-error';
import { validationError } from '../platform/errors/validation.pipe';

/**
 * Which merchant a tip request acts for. The spec's tip bodies name no merchant: a request that
 * names a record (transaction, tip, pool) acts for that record's merchant; the others act for the
 * merchant key's own merchant. An optional `merchant_id` in the body must be one the key may act for (403).
 */
@Injectable()
export class TipMerchants {
  constructor(private readonly scope: MerchantScope) {}

  /** Payouts, pools and tip-credit checks. A partner key, which acts for several merchants, names one. */
  async actingFor(principal: Principal, requested: string | undefined): Promise<string> {
    if (requested !== undefined) {
      await this.scope.assertCanActFor(principal, requested);
      return requested;
    }
    if (principal.merchantId !== undefined) return principal.merchantId;
    throw validationError([
      { field: 'merchant_id', messages: ['merchant_id is required: this API key acts for several merchants'] },
    ]);
  }

  /** The owner of a named record; another merchant's record, or one not of the named merchant, is answered like a missing one. */
  async ownerOf(
    principal: Principal,
    requested: string | undefined,
    owner: string | undefined,
    notFound: () => DomainError,
  ): Promise<string> {
    if (requested !== undefined) await this.scope.assertCanActFor(principal, requested);
    const visible =
      owner !== undefined &&
      (requested === undefined || owner === requested) &&
      (await this.scope.canSee(principal, owner));
    if (!visible) throw notFound();
    return owner;
  }
}
