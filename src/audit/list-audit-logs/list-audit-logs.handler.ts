import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { instantRange } from '../../platform/instant-range';
import { EVENT_COLUMNS, toStoredEvent } from '../../platform/event-store/event-rows';
import { type EventRow } from '@crcs/tlog';
import { QueryDatabases } from '../../platform/read-replica/query-databases';
import { toAuditEntry } from './audit-entry';
import { eventTypesFor } from './event-type-filter';
import { ListAuditLogsQuery } from './list-audit-logs.query';
import type { ListAuditLogsResponse } from './list-audit-logs.response.dto';

/** Straight from the log, in position order: the position is the cursor, so a page never skips or repeats an entry. */
@QueryHandler(ListAuditLogsQuery)
export class ListAuditLogsHandler implements IQueryHandler<ListAuditLogsQuery, ListAuditLogsResponse> {
  constructor(private readonly databases: QueryDatabases) {}

  async execute(query: ListAuditLogsQuery): Promise<ListAuditLogsResponse> {
    const { request } = query;
    const params: unknown[] = [request.cursor];
    const where = ['position > $1'];
    const filter = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (request.event_type !== undefined) filter((p) => `event_type = any(${p})`, eventTypesFor(request.event_type));
    if (request.user_id !== undefined) filter((p) => `metadata->'actor'->>'keyId' = ${p}`, request.user_id);
    const { from, before } = instantRange(request.start_date, request.end_date);
    if (from) filter((p) => `recorded_at >= ${p}`, from.toISOString());
    if (before) filter((p) => `recorded_at < ${p}`, before.toISOString());
    params.push(request.limit + 1);
    const { db } = await this.databases.for(query);
    const rows = await db.query<EventRow>(
      `select ${EVENT_COLUMNS} from events where ${where.join(' and ')} order by position limit $${params.length}`,
      params,
    );
    const entries = rows.slice(0, request.limit).map((row) => toAuditEntry(toStoredEvent(row)));
    const more = rows.length > request.limit;
    return { entries, limit: request.limit, next_cursor: more ? entries[entries.length - 1].position : null };
  }
}
