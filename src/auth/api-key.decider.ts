import type { Decider } from '../platform/decider';
import { ApiKeyAlreadyIssuedError, ApiKeyNotFoundError } from './auth.errors';
import { ForbiddenError, InvalidFieldError } from '../platform/errors/request.errors';
import type { ApiKeyEvent, ApiKeyIssued } from './api-key.events';
import type { Environment, Role } from '../platform/identity/principal';

export type ApiKeyDetails = ApiKeyIssued['data'];

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active'; key: ApiKeyDetails }
  | { status: 'revoked'; key: ApiKeyDetails; revokedAt: string };

export interface IssueApiKey {
  kind: 'IssueApiKey';
  keyId: string;
  keyHash: string;
  role: Role;
  /** As requested; a merchant key defaults to its merchant's environment, any other key to production. */
  environment?: Environment;
  merchantId?: string;
  /** The environment of the merchant named by `merchantId`, as the handler found it. */
  merchantEnvironment?: Environment;
  /** Partner keys: the partner a replacement key joins; a new partner otherwise (its id is the key id). */
  partnerId?: string;
  name?: string;
  issuerRole: Role;
  issuedAt: string;
}

export interface RevokeApiKey {
  kind: 'RevokeApiKey';
  keyId: string;
  revokedAt: string;
}

export type ApiKeyCommand = IssueApiKey | RevokeApiKey;

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyState, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyIssued':
        return { status: 'active', key: event.data };
      case 'ApiKeyRevoked':
        return state.status === 'none' ? state : { status: 'revoked', key: state.key, revokedAt: event.data.revokedAt };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.kind) {
      case 'IssueApiKey':
        if (state.status !== 'none') throw new ApiKeyAlreadyIssuedError(command.keyId);
        return [issue(command)];
      case 'RevokeApiKey':
        if (state.status === 'none') throw new ApiKeyNotFoundError(command.keyId);
        // Revoking twice is a no-op rather than an error: a client retrying a DELETE gets the same answer.
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { keyId: command.keyId, revokedAt: command.revokedAt } }];
    }
  },
};

function issue(command: IssueApiKey): ApiKeyIssued {
  const { role, merchantId, merchantEnvironment } = command;
  // Partners onboard merchants and equip them; platform-wide keys come from an admin only.
  if (command.issuerRole === 'partner' && role !== 'merchant') {
    throw new ForbiddenError('A partner key may issue merchant keys only');
  }
  if (role === 'merchant' && !merchantId)
    throw new InvalidFieldError('merchant_id', 'merchant_id is required for a merchant key');
  if (role !== 'merchant' && merchantId)
    throw new InvalidFieldError('merchant_id', 'merchant_id is only allowed for a merchant key');
  if (role !== 'partner' && command.partnerId !== undefined) {
    throw new InvalidFieldError('partner_id', 'partner_id is only allowed for a partner key');
  }
  if (merchantEnvironment && command.environment && command.environment !== merchantEnvironment) {
    const message = `merchant ${merchantId} is a ${merchantEnvironment} merchant; its keys are ${merchantEnvironment} keys`;
    throw new InvalidFieldError('environment', message);
  }
  return {
    type: 'ApiKeyIssued',
    data: {
      keyId: command.keyId,
      keyHash: command.keyHash,
      role,
      environment: merchantEnvironment ?? command.environment ?? 'production',
      merchantId: merchantId ?? null,
      partnerId: role === 'partner' ? (command.partnerId ?? command.keyId) : null,
      name: command.name ?? null,
      issuedAt: command.issuedAt,
    },
  };
}
