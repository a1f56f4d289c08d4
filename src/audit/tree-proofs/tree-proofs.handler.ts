import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { TreeProofs } from '../tree-proofs';
import { ConsistencyProofQuery, InclusionProofQuery, TreeHeadQuery } from './tree-proofs.query';
import type { ConsistencyProofResponse, InclusionProofResponse, TreeHeadResponse } from '../tree-proofs.response.dto';

@QueryHandler(TreeHeadQuery)
export class TreeHeadHandler implements IQueryHandler<TreeHeadQuery, TreeHeadResponse> {
  constructor(private readonly proofs: TreeProofs) {}

  execute(): Promise<TreeHeadResponse> {
    return this.proofs.latestHead();
  }
}

/** Against the tree of `tree_size`, by default the latest signed head's. */
@QueryHandler(InclusionProofQuery)
export class InclusionProofHandler implements IQueryHandler<InclusionProofQuery, InclusionProofResponse> {
  constructor(private readonly proofs: TreeProofs) {}

  async execute({ request }: InclusionProofQuery): Promise<InclusionProofResponse> {
    return this.proofs.inclusion(request.position, request.tree_size ?? (await this.proofs.latestHead()).tree_size);
  }
}

@QueryHandler(ConsistencyProofQuery)
export class ConsistencyProofHandler implements IQueryHandler<ConsistencyProofQuery, ConsistencyProofResponse> {
  constructor(private readonly proofs: TreeProofs) {}

  execute({ request }: ConsistencyProofQuery): Promise<ConsistencyProofResponse> {
    return this.proofs.consistency(request.first, request.second);
  }
}
