import { Body, Controller, Param, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentCommandContext, type CommandContext } from '../../platform/identity/command-context';
import { Roles } from '../../platform/identity/roles.decorator';
import { validationError } from '../../platform/errors/validation.pipe';
import { ChangeJurisdictionRuleCommand } from './change-jurisdiction-rule.command';
import { JurisdictionRuleChange, RuleChangeResponse } from './change-jurisdiction-rule.response.dto';
import { AppendsToLog } from '../../platform/as-of-position';

@ApiTags('Jurisdictions')
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
  @AppendsToLog()
  @ApiOperation({
    operationId: 'changeJurisdictionRule',
    summary: 'Record a version of a jurisdiction rule',
    description:
      'The body is a whole rule; every field is checked, all problems are answered at once, and an unknown field is refused. ' +
      'A version with the same place, rule_type, scope and effective_date as a recorded one replaces it (200); any other is ' +
      'added (201). Lookups and sales use it from its effective date on, from the moment this answers; other instances of ' +
      'the service pick it up within seconds. Every change is an entry of the audit log.',
  })
  @ApiParam({
    name: 'lookup_key',
    description:
      'The place of the rule: `US`, `<state>`, `<state>-<county>` or `<state>-<county>-<city>`; it must fit the place fields of the body',
    example: 'AL',
  })
  @ApiBody({ type: JurisdictionRuleChange })
  @ApiCreatedResponse({ type: RuleChangeResponse, description: 'A new rule version was added' })
  @ApiOkResponse({
    type: RuleChangeResponse,
    description: 'The version with the same place, rule_type, scope and effective_date was replaced',
  })
  async change(
    @Param('lookup_key') lookupKey: string,
    @Body() body: unknown,
    @CurrentCommandContext() context: CommandContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RuleChangeResponse> {
    const command = new ChangeJurisdictionRuleCommand(ruleAt(lookupKey, body), context);
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
    throw validationError([
      { field: 'lookup_key', messages: [`lookup_key must be ${lookupKey} as in the path, or be left out`] },
    ]);
  }
  return { ...body, lookup_key: lookupKey };
}
