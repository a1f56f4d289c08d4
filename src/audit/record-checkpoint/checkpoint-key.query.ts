import { Query } from '@nestjs/cqrs';
import { CheckpointKeyResponse } from './checkpoint-key.response.dto';

export class CheckpointKeyQuery extends Query<CheckpointKeyResponse> {}
