import { Command } from '@nestjs/cqrs';
import type { ApiKeyRecord } from '../api-key-directory';
import type { CommandContext } from '../../platform/identity/command-context';

export class RevokeApiKeyCommand extends Command<ApiKeyRecord> {
  constructor(
    readonly keyId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
