import { Query } from '@nestjs/cqrs';
import type { ConsistencyProofRequest, InclusionProofRequest } from './tree-proofs.request.dto';
import { ConsistencyProofResponse, InclusionProofResponse, TreeHeadResponse } from '../tree-proofs.response.dto';

export class TreeHeadQuery extends Query<TreeHeadResponse> {}

export class InclusionProofQuery extends Query<InclusionProofResponse> {
  constructor(readonly request: InclusionProofRequest) {
    super();
  }
}

export class ConsistencyProofQuery extends Query<ConsistencyProofResponse> {
  constructor(readonly request: ConsistencyProofRequest) {
    super();
  }
}
