import { Controller, Get, Header, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../platform/identity/roles.decorator';
import { ApiErrors } from '../../platform/openapi/api-errors.decorator';
import { ConsistencyProofQuery, InclusionProofQuery, TreeHeadQuery } from './tree-proofs.query';
import { ConsistencyProofResponse, InclusionProofResponse, TreeHeadResponse } from '../tree-proofs.response.dto';
import { InclusionProofRequest, ConsistencyProofRequest } from './tree-proofs.request.dto';

const OUT_OF_RANGE = { VALIDATION_ERROR: 'A size beyond the log, a position beyond the tree, or first above second' };

/** RFC 9162 tree heads and proofs over the audit log (docs/design.md "Verifiable log"). */
@ApiTags('Audit')
@Controller('admin/audit')
export class TreeProofsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('tree-head')
  @Roles('auditor', 'admin')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getTreeHead',
    summary: 'The latest signed tree head of the audit log',
    description:
      'The Merkle tree (RFC 9162) over every entry’s chain hash, as of the last signed checkpoint. Keep it: a later consistency ' +
      'proof from its size shows that the log only grew. Unsigned (`signature` null), over the whole log, when no head is signed yet.',
  })
  @ApiOkResponse({ type: TreeHeadResponse, description: 'The latest tree head' })
  treeHead(): Promise<TreeHeadResponse> {
    return this.queries.execute(new TreeHeadQuery());
  }

  @Get('inclusion-proof')
  @Roles('auditor', 'admin')
  @ApiOperation({
    operationId: 'getInclusionProof',
    summary: 'Proof that an entry is in the tree of a given size',
    description:
      'RFC 9162 2.1.3.1. Verify it with 2.1.3.2 against a tree head of that size you hold, or with `npm run verify-chain -- inclusion`.',
  })
  @ApiOkResponse({ type: InclusionProofResponse, description: 'The entry’s inclusion path and the root it leads to' })
  @ApiErrors({ 400: OUT_OF_RANGE, 404: { NOT_FOUND: 'No entry at that position' } })
  inclusion(@Query() query: InclusionProofRequest): Promise<InclusionProofResponse> {
    return this.queries.execute(new InclusionProofQuery(query));
  }

  @Get('consistency-proof')
  @Roles('auditor', 'admin')
  @ApiOperation({
    operationId: 'getConsistencyProof',
    summary: 'Proof that the tree of one size is a prefix of the tree of a later one',
    description:
      'RFC 9162 2.1.4.1. Verify it with 2.1.4.2 against two tree heads you hold, or with `npm run verify-chain -- consistency`.',
  })
  @ApiOkResponse({ type: ConsistencyProofResponse, description: 'The proof and both roots' })
  @ApiErrors({ 400: OUT_OF_RANGE })
  consistency(@Query() query: ConsistencyProofRequest): Promise<ConsistencyProofResponse> {
    return this.queries.execute(new ConsistencyProofQuery(query));
  }
}
