import { Query } from '@nestjs/cqrs';
import type { WitnessingResponse } from './witnessing.response.dto';

/** The latest checkpoint, the policy's witnesses and whether their cosignatures meet its quorum. */
export class WitnessingQuery extends Query<WitnessingResponse> {}
