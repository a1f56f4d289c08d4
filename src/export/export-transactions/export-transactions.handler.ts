import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ForbiddenError } from '../../platform/errors/request.errors';
import { MerchantScope } from '../../auth/merchant-scope';
import type { Principal } from '../../platform/identity/principal';
import { Clock } from '../../platform/clock';
import { instantRange } from '../../platform/instant-range';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { csvChunks } from './csv';
import { EXPORT_COLUMNS } from './export-columns';
import { exportRows } from '../../transactions/read-model/transaction-batches';
import { transactionListProjector } from '../../transactions/read-model/transaction-list.projector';
import { readAsOf } from '../../platform/projections/log-position';
import { ExportTransactionsQuery, type ExportFile } from './export-transactions.query';
import { readAhead } from './read-ahead';

@QueryHandler(ExportTransactionsQuery)
export class ExportTransactionsHandler implements IQueryHandler<ExportTransactionsQuery, ExportFile> {
  constructor(
    private readonly databases: QueryDatabases,
    private readonly scope: MerchantScope,
    private readonly clock: Clock,
  ) {}

  async execute(query: ExportTransactionsQuery): Promise<ExportFile> {
    const { request, principal } = query;
    // A null field counts as absent (IsOptional lets it through), as everywhere in the API.
    const mode = request.export_mode ?? 'standard';
    const merchantId = await this.merchantToExport(principal, request.merchant_id ?? undefined);
    const { from, before } = instantRange(request.start_date, request.end_date);
    // The file shows the transactions made up to the moment it was asked for, however long it takes
    // to send: those recorded meanwhile are left out, so it never chases the head of the log.
    const now = this.clock.now();
    const cutOff = new Date(now.getTime() + 1);
    const { db, dataAsOf } = await this.databases.for(query);
    // The file holds the records up to the position the read model had reached (X-Log-Position) when asked.
    const { as_of_position: upTo } = await readAsOf(
      db,
      [transactionListProjector],
      () => Promise.resolve(undefined),
      query.minPosition,
    );
    const rows = exportRows(db, {
      upTo,
      merchantId,
      from,
      before: before && before < cutOff ? before : cutOff,
      paymentMethod: request.payment_method ?? undefined,
      complianceStatus: request.compliance_status ?? undefined,
    });
    const start = request.start_date ? stamp(request.start_date) : 'earliest';
    // Read from the replica, the file holds the log as the replica had it.
    const end = request.end_date ? stamp(request.end_date) : stamp((dataAsOf ?? now).toISOString());
    return {
      fileName: `crcs-export-${mode}-${merchantId ?? 'all'}-${start}-${end}.csv`,
      chunks: await started(csvChunks(EXPORT_COLUMNS[mode], readAhead(rows))),
    };
  }

  /** Merchant keys export their own merchant, and naming another is a 403; auditors and admins any one, or all. */
  private async merchantToExport(principal: Principal, merchantId: string | undefined): Promise<string | undefined> {
    if (merchantId !== undefined) {
      if (!(await this.scope.canSee(principal, merchantId)))
        throw new ForbiddenError(`This API key may not export merchant ${merchantId}`);
      return merchantId;
    }
    const visible = await this.scope.visibleMerchants(principal);
    if (visible === 'all') return undefined;
    // Only merchant keys reach here (see @Roles): exactly their own merchant.
    return visible[0];
  }
}

/** A date as given, or an instant in UTC without colons (file names on Windows cannot hold them). */
function stamp(value: string): string {
  return value.length === 10 ? value : new Date(value).toISOString().replace(/:|\.000/g, '');
}

/**
 * Runs the chunks up to the first one (the header and the first batch) before anything is sent, so
 * that a failure there (the database down) is still an error answer rather than a cut-off 200.
 */
async function started(chunks: AsyncGenerator<string>): Promise<AsyncIterable<string>> {
  const first = await chunks.next();
  return (async function* () {
    if (!first.done) yield first.value;
    yield* chunks;
  })();
}
