import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../platform/identity/principal';
import type { ExportTransactionsRequest } from './export-transactions.request.dto';

/** The CSV to send: its file name and its text, a chunk per batch of rows. */
export interface ExportFile {
  fileName: string;
  chunks: AsyncIterable<string>;
}

export class ExportTransactionsQuery extends Query<ExportFile> {
  constructor(
    readonly request: ExportTransactionsRequest,
    readonly principal: Principal,
    readonly minPosition?: number,
  ) {
    super();
  }
}
