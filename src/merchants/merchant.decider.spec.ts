import { given } from '../../test/support/decider';
import { ForbiddenError } from '../platform/errors/request.errors';
import { merchantDecider, type OnboardMerchant } from './merchant.decider';
import { MerchantAlreadyExistsError } from './merchant.errors';
import type { MerchantOnboarded } from './merchant.events';

const AT = '2026-11-21T12:00:00.000Z';

const onboard = (fields: Partial<OnboardMerchant> = {}): OnboardMerchant => ({
  kind: 'OnboardMerchant',
  merchantId: 'm-1',
  name: 'Corner Deli',
  environment: 'production',
  onboardedBy: { role: 'admin', environment: 'production' },
  onboardedAt: AT,
  ...fields,
});

const onboarded = (data: Partial<MerchantOnboarded['data']> = {}): MerchantOnboarded => ({
  type: 'MerchantOnboarded',
  data: {
    merchantId: 'm-1',
    name: 'Corner Deli',
    environment: 'production',
    partnerId: null,
    onboardedAt: AT,
    ...data,
  },
});

describe('merchant decider', () => {
  it('onboards a merchant that belongs to no partner when an admin does it', () => {
    given(merchantDecider).when(onboard()).then([onboarded()]);
  });

  it('lets an admin onboard in either environment', () => {
    given(merchantDecider)
      .when(onboard({ environment: 'sandbox' }))
      .then([onboarded({ environment: 'sandbox' })]);
  });

  it('gives a merchant onboarded by a partner to that partner', () => {
    given(merchantDecider)
      .when(onboard({ onboardedBy: { role: 'partner', environment: 'production', partnerId: 'p-1' } }))
      .then([onboarded({ partnerId: 'p-1' })]);
  });

  it.each([
    ['sandbox', 'production'],
    ['production', 'sandbox'],
  ] as const)('forbids a %s partner key to onboard a %s merchant', (keyEnvironment, environment) => {
    given(merchantDecider)
      .when(onboard({ environment, onboardedBy: { role: 'partner', environment: keyEnvironment, partnerId: 'p-1' } }))
      .thenThrows(ForbiddenError, { status: 403 });
  });

  it('refuses a merchant id that is taken', () => {
    given(merchantDecider, [onboarded()])
      .when(onboard({ name: 'Someone Else' }))
      .thenThrows(MerchantAlreadyExistsError, { status: 409, code: 'MERCHANT_ALREADY_EXISTS' });
  });

  it('folds to the onboarded merchant', () => {
    expect(given(merchantDecider, [onboarded()]).state).toEqual({ status: 'onboarded', merchant: onboarded().data });
  });
});
