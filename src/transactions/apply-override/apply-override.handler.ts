import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/config';
import { readTransaction } from '../read-model/transaction-reads';
import { SaleChanges } from '../sale-changes';
import { newOverrideId } from '../transaction-id';
import { ApplyOverrideCommand } from './apply-override.command';
import type { ApplyOverrideResponse } from './apply-override.response.dto';

@CommandHandler(ApplyOverrideCommand)
export class ApplyOverrideHandler implements ICommandHandler<ApplyOverrideCommand, ApplyOverrideResponse> {
  constructor(
    private readonly changes: SaleChanges,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async execute({ override, context, idempotency }: ApplyOverrideCommand): Promise<ApplyOverrideResponse> {
    const now = this.clock.now();
    const overrideId = newOverrideId(now);
    const bounds = { tolerance_cents: this.config.overrideToleranceCents };
    const command = {
      kind: 'ApplyOverride' as const,
      override_id: overrideId,
      now: now.toISOString(),
      override,
      bounds,
    };
    return this.changes.change(override.transaction_id, context, idempotency, command, async (tx) => {
      const original = (await readTransaction(tx, override.transaction_id))!;
      return { success: true, override: original.overrides.find((applied) => applied.id === overrideId)!, original };
    });
  }
}
