import { Query } from '@nestjs/cqrs';
import type { VerifyHashChainRequest } from './verify-hash-chain.request.dto';
import { VerifyHashChainResponse } from '../verify-hash-chain.response.dto';

export class VerifyHashChainQuery extends Query<VerifyHashChainResponse> {
  constructor(readonly request: VerifyHashChainRequest) {
    super();
  }
}
