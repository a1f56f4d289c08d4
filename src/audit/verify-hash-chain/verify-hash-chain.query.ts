import { Query } from '@nestjs/cqrs';
import type { ChainVerification } from '../../event-store/chain-verifier';
import type { VerifyHashChainRequest } from './verify-hash-chain.request.dto';

export interface VerifyHashChainResponse extends ChainVerification {
  from_position: number;
  to_position: number;
}

export class VerifyHashChainQuery extends Query<VerifyHashChainResponse> {
  constructor(readonly request: VerifyHashChainRequest) {
    super();
  }
}
