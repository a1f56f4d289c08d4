import { given } from '../../test/support/decider';
import { apiKeyDecider, type IssueApiKey, type RevokeApiKey } from './api-key.decider';
import type { ApiKeyIssued, ApiKeyRevoked } from './api-key.events';
import { ApiKeyAlreadyIssuedError, ApiKeyNotFoundError } from './auth.errors';
import { ForbiddenError, InvalidFieldError } from '../platform/errors/request.errors';

const HASH = 'a'.repeat(64);
const AT = '2026-11-21T12:00:00.000Z';

const issue = (fields: Partial<IssueApiKey> = {}): IssueApiKey => ({
  kind: 'IssueApiKey',
  keyId: 'key_1',
  keyHash: HASH,
  role: 'merchant',
  merchantId: 'm-1',
  merchantEnvironment: 'sandbox',
  issuerRole: 'admin',
  issuedAt: AT,
  ...fields,
});

const issued = (data: Partial<ApiKeyIssued['data']> = {}): ApiKeyIssued => ({
  type: 'ApiKeyIssued',
  data: {
    keyId: 'key_1',
    keyHash: HASH,
    role: 'merchant',
    environment: 'sandbox',
    merchantId: 'm-1',
    partnerId: null,
    name: null,
    issuedAt: AT,
    ...data,
  },
});

const revoke: RevokeApiKey = { kind: 'RevokeApiKey', keyId: 'key_1', revokedAt: '2026-11-21T13:00:00.000Z' };
const revoked: ApiKeyRevoked = {
  type: 'ApiKeyRevoked',
  data: { keyId: 'key_1', revokedAt: '2026-11-21T13:00:00.000Z' },
};

describe('API key decider', () => {
  describe('issuing', () => {
    it('issues a merchant key in its merchant environment, holding only the hash', () => {
      given(apiKeyDecider).when(issue()).then([issued()]);
    });

    it('keeps the name', () => {
      given(apiKeyDecider)
        .when(issue({ name: 'Till 3' }))
        .then([issued({ name: 'Till 3' })]);
    });

    it('takes an environment that matches the merchant', () => {
      given(apiKeyDecider)
        .when(issue({ environment: 'sandbox' }))
        .then([issued()]);
    });

    it('refuses an environment other than the merchant’s', () => {
      given(apiKeyDecider)
        .when(issue({ environment: 'production' }))
        .thenThrows(InvalidFieldError, {
          status: 400,
          details: [{ field: 'environment', messages: [expect.stringContaining('sandbox')] }],
        });
    });

    it('requires a merchant for a merchant key', () => {
      given(apiKeyDecider)
        .when(issue({ merchantId: undefined, merchantEnvironment: undefined }))
        .thenThrows(InvalidFieldError, {
          details: [{ field: 'merchant_id', messages: ['merchant_id is required for a merchant key'] }],
        });
    });

    it.each([['auditor'], ['admin'], ['partner']] as const)('refuses a merchant for a %s key', (role) => {
      given(apiKeyDecider)
        .when(issue({ role, merchantEnvironment: undefined }))
        .thenThrows(InvalidFieldError, { details: [{ field: 'merchant_id', messages: expect.any(Array) }] });
    });

    it.each([['auditor'], ['admin']] as const)('defaults a %s key to production', (role) => {
      given(apiKeyDecider)
        .when(issue({ role, merchantId: undefined, merchantEnvironment: undefined }))
        .then([issued({ role, merchantId: null, environment: 'production' })]);
    });

    it('issues a sandbox auditor key when asked', () => {
      given(apiKeyDecider)
        .when(issue({ role: 'auditor', merchantId: undefined, merchantEnvironment: undefined, environment: 'sandbox' }))
        .then([issued({ role: 'auditor', merchantId: null, environment: 'sandbox' })]);
    });

    it('makes a new partner of a partner key, named by the key id', () => {
      given(apiKeyDecider)
        .when(issue({ role: 'partner', merchantId: undefined, merchantEnvironment: undefined }))
        .then([issued({ role: 'partner', merchantId: null, partnerId: 'key_1', environment: 'production' })]);
    });

    it('joins a replacement partner key to its partner', () => {
      given(apiKeyDecider)
        .when(issue({ role: 'partner', merchantId: undefined, merchantEnvironment: undefined, partnerId: 'key_old' }))
        .then([issued({ role: 'partner', merchantId: null, partnerId: 'key_old', environment: 'production' })]);
    });

    it('refuses a partner_id on any other key', () => {
      given(apiKeyDecider)
        .when(issue({ partnerId: 'key_old' }))
        .thenThrows(InvalidFieldError, { details: [{ field: 'partner_id', messages: expect.any(Array) }] });
    });

    it('lets a partner issue merchant keys', () => {
      given(apiKeyDecider)
        .when(issue({ issuerRole: 'partner' }))
        .then([issued()]);
    });

    it.each([['auditor'], ['admin'], ['partner']] as const)('forbids a partner to issue a %s key', (role) => {
      given(apiKeyDecider)
        .when(issue({ role, merchantId: undefined, merchantEnvironment: undefined, issuerRole: 'partner' }))
        .thenThrows(ForbiddenError, { status: 403, message: 'A partner key may issue merchant keys only' });
    });

    it('never issues the same key id twice', () => {
      given(apiKeyDecider, [issued()]).when(issue()).thenThrows(ApiKeyAlreadyIssuedError, { status: 409 });
    });
  });

  describe('revoking', () => {
    it('revokes an active key', () => {
      given(apiKeyDecider, [issued()]).when(revoke).then([revoked]);
    });

    it('records nothing for a key already revoked (a retried DELETE)', () => {
      given(apiKeyDecider, [issued(), revoked])
        .when({ ...revoke, revokedAt: '2026-11-22T00:00:00.000Z' })
        .then([]);
    });

    it('does not know a key that was never issued', () => {
      given(apiKeyDecider).when(revoke).thenThrows(ApiKeyNotFoundError, { status: 404 });
    });
  });

  describe('evolving', () => {
    it('folds issue and revoke into a revoked key that keeps its details', () => {
      expect(given(apiKeyDecider, [issued(), revoked]).state).toEqual({
        status: 'revoked',
        key: issued().data,
        revokedAt: revoked.data.revokedAt,
      });
    });

    it('ignores a revocation of nothing', () => {
      expect(given(apiKeyDecider, [revoked]).state).toEqual({ status: 'none' });
    });
  });
});
