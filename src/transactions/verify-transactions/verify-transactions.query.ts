import { Query } from '@nestjs/cqrs';
import { ReadModelCheck } from './verify-transactions.response.dto';

export class VerifyTransactionsQuery extends Query<ReadModelCheck> {}
