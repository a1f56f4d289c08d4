import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Roles, PublicWhenLogPublic } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { CHAIN_TAMPERED_DOC } from '../chain-tampered';
import { NOT_CONFIGURED } from '../signing-key';
import { NO_CHECKPOINT } from '../checkpoint-notes';
import { NO_QUORUM } from '../cosignatures';
import { CheckpointNoteQuery, TileQuery, VerifierKeyQuery } from './transparency-log.query';

/** tlog-tiles: the checkpoint is `text/plain; charset=utf-8`; the document names the media type. */
const TEXT = 'text/plain';
const UTF8_TEXT = `${TEXT}; charset=utf-8`;
const OCTETS = 'application/octet-stream';
const CHECKPOINT_EXAMPLE =
  'example.com/crcs/5f1c0a9b2e4d\n1204\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n— example.com/crcs/5f1c0a9b2e4d Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n';

/**
 * The log in the formats of transparency logs (docs/design.md "Transparency in the standard formats"):
 * its checkpoint as a C2SP signed note, the verifier key, and tlog-tiles, for monitors,
 * witnesses and auditors' tools that know nothing of this service.
 */
@ApiTags('Audit')
@Controller('log')
export class TransparencyLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('checkpoint')
  @Roles('auditor', 'admin')
  @PublicWhenLogPublic()
  @ApiOperation({
    operationId: 'getLogCheckpoint',
    summary: 'The latest witnessed tree head as a C2SP checkpoint (c2sp.org/tlog-checkpoint)',
    description:
      'A signed note: the origin, the tree size and the base64 Merkle root, then a blank line and the Ed25519 signature line of the ' +
      'log’s key (named by the origin), then a cosignature line (c2sp.org/tlog-cosignature) of each witness of LOG_POLICY_FILE that cosigned it. ' +
      'Verify it with the verifier key (`GET /log/vkey`, fetched once and kept), or with a tlog-policy and its quorum. ' +
      'With LOG_POLICY_FILE, the newest checkpoint whose cosignatures meet the policy’s quorum: a newer one not yet cosigned is not served here ' +
      '(the newest signed checkpoint is at `GET /admin/audit/witnessing`). Open to anyone with LOG_PUBLIC=true.',
  })
  @ApiProduces(TEXT)
  @ApiOkResponse({
    description: 'The checkpoint note',
    content: { [TEXT]: { schema: { type: 'string', example: CHECKPOINT_EXAMPLE } } },
  })
  @ApiErrors({
    404: { NOT_FOUND: `${NOT_CONFIGURED}, or: ${NO_CHECKPOINT}, or: ${NO_QUORUM}` },
    503: CHAIN_TAMPERED_DOC,
  })
  async checkpoint(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const note = await this.queries.execute(new CheckpointNoteQuery());
    // Set on success only: an error is JSON, and a text/plain content type would make Fastify refuse to send it.
    void reply.header('Content-Type', UTF8_TEXT).header('Cache-Control', 'no-cache');
    return note;
  }

  @Get('vkey')
  @Roles('auditor', 'admin')
  @PublicWhenLogPublic()
  @ApiOperation({
    operationId: 'getLogVerifierKey',
    summary: 'The signed-note verifier key of the log’s checkpoints',
    description:
      '`<origin>+<key id>+<base64(0x01 ‖ Ed25519 public key)>`, as Go’s `note.NewVerifier` and witnesses take it. Fetch it once and keep it.',
  })
  @ApiProduces(TEXT)
  @ApiOkResponse({
    description: 'The verifier key and a newline',
    content: {
      [TEXT]: {
        schema: {
          type: 'string',
          example: 'example.com/crcs/5f1c0a9b2e4d+03de0e1b+AXRjQ7lcDkNzVuXBNp3LJyVTxiyM7rF6ZSvMmKrdiHoJ\n',
        },
      },
    },
  })
  @ApiErrors({ 404: { NOT_FOUND: NOT_CONFIGURED } })
  async vkey(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const vkey = await this.queries.execute(new VerifierKeyQuery());
    void reply.header('Content-Type', UTF8_TEXT);
    return `${vkey}\n`;
  }

  @Get('tile/*')
  @Roles('auditor', 'admin')
  @PublicWhenLogPublic()
  @ApiOperation({
    operationId: 'getLogTile',
    summary: 'A hash tile or an entry bundle (c2sp.org/tlog-tiles)',
    description:
      '`tile/<L>/<N>[.p/<W>]`: the 256 (or W) Merkle tree hashes at height 8·L from index 256·N; `tile/entries/<N>[.p/<W>]`: the entries ' +
      '256·N onwards, each the 32-byte chain hash (the leaf input), after its big-endian 2-byte length. N in 3-digit groups, all but the ' +
      'last prefixed with x (`x001/234`). Served up to the latest checkpoint’s size; full tiles are immutable.',
  })
  @ApiParam({ name: 'path', description: 'The path after `tile/`, slashes included', example: '0/x001/234.p/12' })
  @ApiProduces(OCTETS)
  @ApiOkResponse({
    description: 'The tile’s bytes',
    content: { [OCTETS]: { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors({
    400: { VALIDATION_ERROR: 'Not a tile path' },
    404: { NOT_FOUND: 'A tile beyond the latest checkpoint' },
    503: CHAIN_TAMPERED_DOC,
  })
  async tile(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    // The wildcard read from the request, not by @Param('*'), which the document would list as a parameter named `*`.
    const { body, cacheControl } = await this.queries.execute(new TileQuery((request.params as { '*': string })['*']));
    void reply.header('Content-Type', OCTETS).header('Cache-Control', cacheControl);
    return body;
  }
}
