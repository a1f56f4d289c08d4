import { Query } from '@nestjs/cqrs';
import { VerifyTransactionsResponse } from './verify-transactions.response.dto';

export class VerifyTransactionsQuery extends Query<VerifyTransactionsResponse> {}
