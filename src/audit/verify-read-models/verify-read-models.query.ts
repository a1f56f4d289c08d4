import { Query } from '@nestjs/cqrs';
import { ReadModelsCheck } from './verify-read-models.response.dto';

export class VerifyReadModelsQuery extends Query<ReadModelsCheck> {}
