import { ForbiddenError } from '../platform/errors/request.errors';
import type { Decider } from '../platform/decider';
import type { Environment, Role } from '../platform/identity/principal';
import { MerchantAlreadyExistsError } from './merchant.errors';
import type { MerchantEvent, MerchantOnboarded } from './merchant.events';

export type MerchantState = { status: 'none' } | { status: 'onboarded'; merchant: MerchantOnboarded['data'] };

export interface OnboardMerchant {
  kind: 'OnboardMerchant';
  merchantId: string;
  name: string;
  environment: Environment;
  onboardedBy: { role: Role; environment: Environment; partnerId?: string };
  onboardedAt: string;
}

export type MerchantCommand = OnboardMerchant;

export const merchantDecider: Decider<MerchantCommand, MerchantState, MerchantEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'MerchantOnboarded':
        return { status: 'onboarded', merchant: event.data };
      default:
        return state;
    }
  },

  decide(command, state) {
    if (state.status !== 'none') throw new MerchantAlreadyExistsError(command.merchantId);
    const { onboardedBy } = command;
    // A sandbox partner key is a test credential: it must not be able to create a live merchant (nor the reverse).
    if (onboardedBy.role === 'partner' && onboardedBy.environment !== command.environment) {
      throw new ForbiddenError(
        `A ${onboardedBy.environment} partner key may onboard ${onboardedBy.environment} merchants only`,
      );
    }
    return [
      {
        type: 'MerchantOnboarded',
        data: {
          merchantId: command.merchantId,
          name: command.name,
          environment: command.environment,
          partnerId: onboardedBy.role === 'partner' ? (onboardedBy.partnerId ?? null) : null,
          onboardedAt: command.onboardedAt,
        },
      },
    ];
  },
};
