import { Injectable } from '@nestjs/common';
import { MerchantDirectory } from '../merchants/merchant-directory';
import { ForbiddenError } from '../platform/errors/request.errors';
import type { Principal } from '../platform/identity/principal';

/**
 * The one place that decides which merchants a key may see and act for. Every feature asks here:
 * - `canSee` false: answer 404, exactly as for an unknown id (another merchant's record is not there for this key);
 * - `assertCanActFor`: 403 when a request names a merchant the key may not act for;
 * - `visibleMerchants`: the filter for lists.
 *
 * Admin: every merchant. Auditor: sees every merchant, acts for none (read-only). Merchant key: its
 * own merchant. Partner key: the merchants its partner onboarded, in the key's own environment.
 */
@Injectable()
export class MerchantScope {
  constructor(private readonly merchants: MerchantDirectory) {}

  /** `merchantId` null: a platform record that belongs to no merchant (e.g. an admin key), for admins and auditors only. */
  async canSee(principal: Principal, merchantId: string | null): Promise<boolean> {
    switch (principal.role) {
      case 'admin':
      case 'auditor':
        return true;
      case 'merchant':
        return merchantId !== null && merchantId === principal.merchantId;
      case 'partner':
        return merchantId !== null && (await this.partnerOwns(principal, merchantId));
    }
  }

  /**
   * Throws a 403 unless the key may act for the merchant. An unknown merchant is refused like
   * another's, except to an admin. `merchantId` null: a platform record, for admins only.
   */
  async assertCanActFor(principal: Principal, merchantId: string | null): Promise<void> {
    const allowed =
      principal.role === 'admin' ||
      (merchantId !== null && principal.role === 'merchant' && merchantId === principal.merchantId) ||
      (merchantId !== null && principal.role === 'partner' && (await this.partnerOwns(principal, merchantId)));
    if (!allowed)
      throw new ForbiddenError(
        `This API key may not act for ${merchantId === null ? 'the platform' : `merchant ${merchantId}`}`,
      );
  }

  /** The merchants whose records a list may show: 'all' for admin and auditor keys. */
  async visibleMerchants(principal: Principal): Promise<'all' | string[]> {
    switch (principal.role) {
      case 'admin':
      case 'auditor':
        return 'all';
      case 'merchant':
        return principal.merchantId ? [principal.merchantId] : [];
      case 'partner':
        return principal.partnerId ? this.merchants.idsOfPartner(principal.partnerId, principal.environment) : [];
    }
  }

  private async partnerOwns(principal: Principal, merchantId: string): Promise<boolean> {
    const merchant = await this.merchants.find(merchantId);
    return (
      merchant !== undefined &&
      principal.partnerId !== undefined &&
      merchant.partnerId === principal.partnerId &&
      merchant.environment === principal.environment
    );
  }
}
