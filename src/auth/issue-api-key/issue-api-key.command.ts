import { Command } from '@nestjs/cqrs';
import type { ApiKeyRecord } from '../api-key-directory';
import type { CommandContext } from '../../platform/identity/command-context';
import type { IssueApiKey } from '../api-key.decider';

export interface IssueApiKeyResult {
  /** The raw key: returned this once, stored nowhere. */
  key: string;
  apiKey: ApiKeyRecord;
}

export class IssueApiKeyCommand extends Command<IssueApiKeyResult> {
  constructor(
    /** The request, converted at the edge to the decider's names (the key's events are camelCase). */
    readonly request: Pick<IssueApiKey, 'role' | 'merchantId' | 'environment' | 'name' | 'partnerId'>,
    readonly context: CommandContext,
    /** Only the bootstrap names the id, so that two processes starting together issue one key between them. */
    readonly keyId?: string,
  ) {
    super();
  }
}
