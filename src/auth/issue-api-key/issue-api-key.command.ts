import { Command } from '@nestjs/cqrs';
import type { ApiKeyRecord } from '../api-key-directory';
import type { CommandContext } from '../../platform/identity/command-context';
import type { Environment, Role } from '../../platform/identity/principal';

export interface IssueApiKeyResult {
  /** The raw key: returned this once, stored nowhere. */
  key: string;
  apiKey: ApiKeyRecord;
}

export class IssueApiKeyCommand extends Command<IssueApiKeyResult> {
  constructor(
    readonly request: { role: Role; merchantId?: string; environment?: Environment; name?: string; partnerId?: string },
    readonly context: CommandContext,
    /** Only the bootstrap names the id, so that two processes starting together issue one key between them. */
    readonly keyId?: string,
  ) {
    super();
  }
}
