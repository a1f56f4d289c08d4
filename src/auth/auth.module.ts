import { Module } from '@nestjs/common';
import { CommandModule } from '../platform/command.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { AuthGuard } from '../platform/identity/auth.guard';
import { Authenticator } from '../platform/identity/authenticator';
import { RateLimitModule } from '../platform/rate-limit/rate-limit.module';
import { AdminKeyBootstrap } from './admin-key-bootstrap';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyDirectory } from './api-key-directory';
import { ApiKeyRevocationFeed } from './api-key-revocation-feed';
import { IssueApiKeyController } from './issue-api-key/issue-api-key.controller';
import { ListApiKeysController } from './list-api-keys/list-api-keys.controller';
import { ListApiKeysHandler } from './list-api-keys/list-api-keys.handler';
import { RevokeApiKeyController } from './revoke-api-key/revoke-api-key.controller';
import { IssueApiKeyHandler } from './issue-api-key/issue-api-key.handler';
import { MerchantScope } from './merchant-scope';
import { RevokeApiKeyHandler } from './revoke-api-key/revoke-api-key.handler';

/**
 * API keys (issue, list, revoke), the authenticator the global guard (platform/identity) asks on
 * every route, and the merchant scope that every feature asks before it shows or changes a merchant's records.
 * The guard is installed as APP_GUARD by the root module.
 */
@Module({
  imports: [MerchantsModule, RateLimitModule, CommandModule],
  controllers: [IssueApiKeyController, ListApiKeysController, RevokeApiKeyController],
  providers: [
    ApiKeyDirectory,
    ApiKeyRevocationFeed,
    ApiKeyAuthenticator,
    { provide: Authenticator, useExisting: ApiKeyAuthenticator },
    MerchantScope,
    AuthGuard,
    IssueApiKeyHandler,
    RevokeApiKeyHandler,
    ListApiKeysHandler,
    AdminKeyBootstrap,
  ],
  exports: [AuthGuard, MerchantScope],
})
export class AuthModule {}
