import type { Environment } from '../platform/identity/principal';

/** The stream of one merchant: `merchant-<merchantId>`. */
export const merchantStream = (merchantId: string) => `merchant-${merchantId}`;

export interface MerchantOnboarded {
  type: 'MerchantOnboarded';
  data: {
    merchantId: string;
    name: string;
    environment: Environment;
    /** The partner that onboarded the merchant and may act for it; null when an admin did. */
    partnerId: string | null;
    onboardedAt: string;
  };
}

export type MerchantEvent = MerchantOnboarded;
