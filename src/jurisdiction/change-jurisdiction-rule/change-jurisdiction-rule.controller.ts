import { Body, Controller, Param, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { CorrelationId } from '../../auth/command-context';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import type { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { validationError } from '../../common/errors/validation.pipe';
import { ChangeJurisdictionRuleCommand, type RuleChangeRecorded } from './change-jurisdiction-rule.command';

export type RuleChangeResponse = Omit<RuleChangeRecorded, 'created'>;

@Controller()
export class ChangeJurisdictionRuleController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The body is a whole jurisdiction rule, checked field by field by parseJurisdictionRule rather
   * than a DTO, so the seeds and the API accept exactly the same rules. 201 for a new rule version,
   * 200 for a replaced one.
   */
  @Put('admin/jurisdictions/:lookup_key')
  @Roles('admin')
  async change(
    @Param('lookup_key') lookupKey: string,
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @CorrelationId() correlationId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RuleChangeResponse> {
    const command = new ChangeJurisdictionRuleCommand(ruleAt(lookupKey, body), { principal, correlationId });
    const { created, ...recorded } = await this.commands.execute(command);
    void reply.status(created ? 201 : 200);
    return recorded;
  }
}

/** The path names the rule: a body may repeat its lookup_key but not contradict it. */
function ruleAt(lookupKey: string, body: unknown): unknown {
  // Anything but an object is left for parseJurisdictionRule to reject.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const given = (body as { lookup_key?: unknown }).lookup_key;
  if (given !== undefined && given !== lookupKey) {
    throw validationError([{ field: 'lookup_key', messages: [`lookup_key must be ${lookupKey} as in the path, or be left out`] }]);
  }
  return { ...body, lookup_key: lookupKey };
}
