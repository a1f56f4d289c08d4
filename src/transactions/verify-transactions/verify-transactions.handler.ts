import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { ChainAlarms } from '../../audit/chain-alarms';
import { VerificationGate } from '../../audit/verification-gate';
import { EVENT_COLUMNS, toStoredEvent } from '../../platform/event-store/event-rows';
import { type EventRow } from '@crcs/tlog';
import type { Sql } from '../../platform/event-store/sql';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { rowDifferences, type RowDifference, type StoredRow } from '../read-model/row-differences';
import { foldTransactions } from '../read-model/transaction-view';
import { transactionListProjector } from '../read-model/transaction-list.projector';
import { TRANSACTION_EVENT_TYPES } from '../transaction.events';
import { VerifyTransactionsQuery } from './verify-transactions.query';
import type { ReadModelCheck } from './verify-transactions.response.dto';

/** Sales per step: their streams are read and folded, and their rows read, in one snapshot; memory stays at one step. */
const SALES_PER_STEP = 500;
const MAX_LISTED = 100;

/**
 * Folds the log's transaction events a batch of sales at a time, as the projector does, and compares
 * each row of rm_transactions with the fold, field by field; then looks for rows no entry of the
 * log records. Each step reads the log and the read model in one repeatable-read snapshot, up to
 * the read model's checkpoint in it: the projector follows the log after the append and commits its
 * rows with its checkpoint, so an entry it has not applied yet is no difference. A difference raises the chain alarm (docs/adr/0012-c2sp-checkpoints-and-tiles.md says why).
 */
@QueryHandler(VerifyTransactionsQuery)
export class VerifyTransactionsHandler implements IQueryHandler<VerifyTransactionsQuery, ReadModelCheck> {
  constructor(
    private readonly databases: QueryDatabases,
    private readonly alarms: ChainAlarms,
    private readonly gate: VerificationGate,
  ) {}

  /** It takes a verification's turn: it reads the whole log too. */
  execute(query: VerifyTransactionsQuery): Promise<ReadModelCheck> {
    return this.gate.run('rm_transactions', () => this.verify(query));
  }

  private async verify(query: VerifyTransactionsQuery): Promise<ReadModelCheck> {
    const { db } = await this.databases.for(query);
    // The first MAX_LISTED by position and field, and the count of all: a projector's bug could make every row differ.
    let differences: RowDifference[] = [];
    let count = 0;
    const keep = (found: RowDifference[]) => {
      count += found.length;
      differences = [...differences, ...found]
        .sort((a, b) => a.position - b.position || a.field.localeCompare(b.field))
        .slice(0, MAX_LISTED);
    };
    let checked = 0;
    for (let after = 0; after >= 0;) {
      const step = await db.transaction(async (tx) => {
        await tx.query('set transaction isolation level repeatable read');
        return compareSales(tx, after);
      });
      keep(step.differences);
      checked += step.checked;
      after = step.last;
      // Sales go first: a step is short, and the next waits for the requests that came meanwhile.
      await yieldToRequests();
    }
    const strays = await db.query<{ id: string; row: StoredRow }>(
      `select id, to_jsonb(t) as row from rm_transactions t where not exists (
         select 1 from events e where e.position = t.position and e.event_type = any($1) and e.data->>'transaction_id' = t.id)
       order by position`,
      [TRANSACTION_EVENT_TYPES],
    );
    keep(strays.flatMap(({ id, row }) => rowDifferences(id, row, undefined)));
    checked += strays.length;
    const [first] = differences;
    if (first) {
      const detail =
        `rm_transactions differs from the log in ${count} field(s); the first: ${first.transaction_id} ` +
        `${first.field}: stored ${first.stored ?? '(no row)'}, from the log ${first.from_log ?? '(no such transaction)'}`;
      await this.alarms.raise({ source: 'read-model', kind: 'read-model-differs', position: first.position, detail });
    }
    return { checked_count: checked, difference_count: count, differences };
  }
}

/** The sales recorded after position `after`, a step's worth: their rows against the fold of their streams. `last` is -1 after the final step. */
async function compareSales(
  tx: Sql,
  after: number,
): Promise<{ differences: RowDifference[]; checked: number; last: number }> {
  const [{ position: upTo }] = await tx.query<{ position: string }>(
    'select position from projection_checkpoints where name = $1',
    [transactionListProjector.name],
  );
  const sales = await tx.query<{ position: string; stream_id: string }>(
    `select position, stream_id from events where event_type = 'TransactionRecorded' and position > $1 and position <= $3 order by position limit $2`,
    [after, SALES_PER_STEP, upTo],
  );
  if (sales.length === 0) return { differences: [], checked: 0, last: -1 };
  // A sale's stream holds its overrides, and the records of its void and refunds.
  const events = await tx.query<EventRow>(
    `select ${EVENT_COLUMNS} from events where stream_id = any($1) and position <= $2 order by position`,
    [sales.map((sale) => sale.stream_id), upTo],
  );
  const expected = foldTransactions(events.map(toStoredEvent));
  const stored = await tx.query<{ id: string; row: StoredRow }>(
    'select id, to_jsonb(t) as row from rm_transactions t where id = any($1)',
    [[...expected.keys()]],
  );
  const rows = new Map(stored.map(({ id, row }) => [id, row]));
  const differences = [...expected].flatMap(([id, row]) => rowDifferences(id, rows.get(id), row));
  return {
    differences,
    checked: expected.size,
    last: sales.length < SALES_PER_STEP ? -1 : Number(sales[sales.length - 1].position),
  };
}
