import { randomUUID } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../platform/config/config';
import { ApiKeyDirectory } from './api-key-directory';
import { ApiKeyAlreadyIssuedError } from './auth.errors';
import { IssueApiKeyCommand } from './issue-api-key/issue-api-key.command';
import { IssueApiKeyHandler } from './issue-api-key/issue-api-key.handler';

/** Fixed, so that two processes starting on an empty database race on one stream and only one key is issued. */
export const BOOTSTRAP_ADMIN_KEY_ID = 'key_bootstrap_admin';

/**
 * Without ADMIN_API_KEY, the first start of the service issues an admin key and prints it once.
 * Once any admin key was ever issued (revoked or not), no start issues another.
 */
@Injectable()
export class AdminKeyBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly keys: ApiKeyDirectory,
    private readonly issuer: IssueApiKeyHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.adminApiKey || (await this.keys.anyAdminKeyIssued())) return;
    const principal = { keyId: 'system:bootstrap', role: 'admin', environment: 'production' } as const;
    const command = new IssueApiKeyCommand(
      { role: 'admin', name: 'bootstrap admin' },
      { principal, correlationId: randomUUID() },
      BOOTSTRAP_ADMIN_KEY_ID,
    );
    try {
      const { key } = await this.issuer.execute(command);
      // Straight to stdout, whatever LOG_LEVEL says: the key exists nowhere else and is never shown again.
      process.stdout.write(
        `BOOTSTRAP ADMIN API KEY (id ${BOOTSTRAP_ADMIN_KEY_ID}), shown once and never again; store it now: ${key}\n`,
      );
    } catch (error) {
      if (!(error instanceof ApiKeyAlreadyIssuedError)) throw error;
    }
  }
}
