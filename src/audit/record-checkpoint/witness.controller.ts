import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { NDJSON } from '../read-log';
import { NOT_CONFIGURED } from '../signing-key';
import { WitnessQuery } from './witness.query';

const EXAMPLE =
  '{"tree_size":0,"root_hash":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","timestamp":"2026-11-26T12:00:00.000Z","key_id":"3f1c0a9b2e4d5c6f","signature":"…"}\n' +
  '{"tree_size":12,"root_hash":"5db63b5e12aa71c2b43abe009b19bb307fd60ca192e9eaf327eb0c08d2a5d90f","timestamp":"2026-11-26T12:01:00.000Z","key_id":"3f1c0a9b2e4d5c6f","signature":"…"}\n';

/**
 * The witness file as the signer wrote it, for auditors to keep a copy away from the service: the
 * offline verifier's `--witness` then catches a log cut or rewritten below any of its heads, even
 * with the log's checkpoints deleted. Served as stored, never rebuilt from the database.
 */
@ApiTags('Audit')
@Controller()
export class WitnessController {
  constructor(private readonly queries: QueryBus) {}

  @Get('admin/audit/witness')
  @Roles('auditor', 'admin')
  @ApiOperation({
    operationId: 'getWitness',
    summary: 'Every tree head the signer signed, as NDJSON: the witness file',
    description:
      'One signed tree head per line (`{tree_size, root_hash, timestamp, key_id, signature}`, each line ending in a newline), ' +
      'the first the empty tree’s, in the order signed. Keep a copy and give it to `npm run verify-chain -- <export> --public-key ' +
      '<key.pem> --witness <file>`: the log must extend every head in it.',
  })
  @ApiProduces(NDJSON)
  @ApiOkResponse({
    description: 'The witness file, UTF-8',
    content: { [NDJSON]: { schema: { type: 'string', example: EXAMPLE } } },
  })
  @ApiErrors({
    404: { NOT_FOUND: NOT_CONFIGURED },
    503: { CHAIN_ALARM: 'The witness file is missing, torn, corrupt or unreadable (a chain alarm is raised)' },
  })
  async get(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.queries.execute(new WitnessQuery());
    void reply.header('Content-Type', `${NDJSON}; charset=utf-8`).header('Cache-Control', 'no-store');
    return text;
  }
}
