import type { KeyObject } from 'node:crypto';
import {
  CHECKPOINT_EVENT_TYPE,
  signTreeHead,
  type EventRow,
  entryHash,
  MerkleFrontier,
  leafHash,
  type TreeNode,
  writerKey,
  writerMac,
} from '@crcs/tlog';
import type { StoredEvent } from '../../src/platform/event-store/event-store.port';
import { EVENT_COLUMNS, toStoredEvent } from '../../src/platform/event-store/event-rows';
import type { Sql } from '../../src/platform/event-store/sql';
import { writeNodes } from '../../src/platform/event-store/merkle-store';

/**
 * What an attacker with write access to the database can do to the log, in SQL, on the embedded
 * server and PostgreSQL alike. Positions are a primary key, checked row by row: moving entries goes through
 * negative positions so that no statement ever holds two rows on one position.
 */
export async function entryAt(db: Sql, position: number): Promise<StoredEvent> {
  const [row] = await db.query<EventRow>(`select ${EVENT_COLUMNS} from events where position = $1`, [position]);
  if (!row) throw new Error(`no entry at position ${position}`);
  return toStoredEvent(row);
}

/** Sets one value inside the entry's data (`path` as jsonb_set takes it), leaving its hash alone. */
export async function changeData(db: Sql, position: number, path: string[], value: unknown): Promise<void> {
  await db.query('update events set data = jsonb_set(data::jsonb, $2::text[], $3::jsonb)::json where position = $1', [
    position,
    path,
    JSON.stringify(value),
  ]);
}

export async function deleteEntry(db: Sql, position: number): Promise<void> {
  await db.query('delete from events where position = $1', [position]);
}

export async function swapEntries(db: Sql, a: number, b: number): Promise<void> {
  await db.query('update events set position = -$2::bigint where position = $1', [a, b]);
  await db.query('update events set position = $2 where position = $1', [b, a]);
  await db.query('update events set position = -position where position = -$1::bigint', [b]);
}

/**
 * Moves every entry from `position` up by one and puts a forged entry in the gap: a copy of the
 * entry that was there, with other data, linked to its predecessor and correctly hashed.
 */
export async function insertForgedEntry(
  db: Sql,
  position: number,
  data: Record<string, unknown>,
): Promise<StoredEvent> {
  const [before, original] = [await entryAt(db, position - 1), await entryAt(db, position)];
  const entry = {
    ...original,
    entryId: '6f0e1d2c-3b4a-4958-8776-655443322110',
    streamId: 'transaction-FORGED',
    streamRevision: 1,
    data,
    prevHash: before.hash,
  };
  const forged = { ...entry, hash: entryHash(entry) };
  await db.query('update events set position = -(position + 1) where position >= $1', [position]);
  await db.query('update events set position = -position where position < 0');
  await insertEntry(db, forged);
  return forged;
}

/**
 * A careful forger's rewrite: one value changed, then every hash from there to the head
 * recomputed and relinked, the chain-head row included, so that the chain alone looks whole.
 * `repointCheckpoints`: the checkpoints on the way are made to vouch for the new hashes and
 * Merkle roots too, which leaves only their signatures wrong. `signingKey`: the operator holds the
 * log's key (it lives in their data folder), so the checkpoints are re-pointed and re-signed with
 * it, and every rewritten entry gets the writer authenticator its key derives: nothing in the
 * database is left wrong.
 */
export async function rewriteTail(
  db: Sql,
  position: number,
  path: string[],
  value: unknown,
  { repointCheckpoints = false, signingKey }: { repointCheckpoints?: boolean; signingKey?: KeyObject } = {},
): Promise<void> {
  await changeData(db, position, path, value);
  const rows = await db.query<EventRow>(`select ${EVENT_COLUMNS} from events where position >= $1 order by position`, [
    position,
  ]);
  let prevHash = (await entryAt(db, position)).prevHash;
  const tree = MerkleFrontier.empty();
  for (const { hash } of await db.query<{ hash: string }>(
    'select hash from events where position < $1 order by position',
    [position],
  ))
    tree.append(leafHash(hash));
  const writer = signingKey && writerKey(signingKey);
  for (const row of rows) {
    const e = { ...toStoredEvent(row), prevHash };
    if ((repointCheckpoints || signingKey) && e.type === CHECKPOINT_EVENT_TYPE) {
      const root = tree.root().toString('hex');
      e.data = { ...e.data, hash: prevHash, root_hash: root };
      if (signingKey)
        e.data = {
          ...e.data,
          ...signTreeHead(signingKey, {
            tree_size: Number(e.data.tree_size),
            root_hash: root,
            timestamp: String(e.data.timestamp),
          }),
        };
    }
    prevHash = entryHash(e);
    tree.append(leafHash(prevHash));
    await db.query(
      'update events set prev_hash = $2, hash = $3, data = $4, writer_mac = coalesce($5, writer_mac) where position = $1',
      [e.position, e.prevHash, prevHash, JSON.stringify(e.data), writer ? writerMac(writer, prevHash) : null],
    );
  }
  await db.query('update event_store_head set hash = $1', [prevHash]);
}

/**
 * A careful forger's deletion: the entry at `position` is removed, every later entry moved down one
 * into its place, the chain relinked and rehashed from there, and the Merkle tree's nodes and the
 * chain head rewritten to match, so that the chain and the tree alone look whole. Needs no key.
 */
export async function cutEntry(db: Sql, position: number): Promise<void> {
  let { prevHash } = await entryAt(db, position);
  await deleteEntry(db, position);
  await db.query('update events set position = -(position - 1) where position > $1', [position]);
  await db.query('update events set position = -position where position < 0');
  for (const row of await db.query<EventRow>(
    `select ${EVENT_COLUMNS} from events where position >= $1 order by position`,
    [position],
  )) {
    const hash = entryHash({ ...toStoredEvent(row), prevHash });
    await db.query('update events set prev_hash = $2, hash = $3 where position = $1', [row.position, prevHash, hash]);
    prevHash = hash;
  }
  await rebuildTree(db);
}

/** The Merkle tree's nodes recomputed from the stored entries, and the chain head set to the last: what the stored tree and head then say is what the rows say. */
export async function rebuildTree(db: Sql): Promise<void> {
  const tree = MerkleFrontier.empty();
  const nodes: TreeNode[] = [];
  const hashes = await db.query<{ position: string; hash: string }>(
    'select position, hash from events order by position',
  );
  for (const { hash } of hashes) nodes.push(...tree.append(leafHash(hash)));
  await db.query('delete from merkle_nodes');
  await writeNodes(db, nodes);
  const last = hashes[hashes.length - 1];
  await db.query('update event_store_head set position = $1, hash = $2', [last.position, last.hash]);
}

/**
 * A well-formed entry inserted by SQL at the end of the log: a copy of the last sale's with other
 * data, its own id and stream, linked to the head and correctly hashed, the Merkle tree and the
 * chain head moved on to it. All that it lacks is what only a key outside the database can make.
 */
export async function appendForgedEntry(db: Sql, data: Record<string, unknown>): Promise<StoredEvent> {
  const [head] = await db.query<{ position: string; hash: string }>('select position, hash from event_store_head');
  const [{ position: saleAt }] = await db.query<{ position: string }>(
    "select max(position) as position from events where event_type = 'TransactionRecorded'",
  );
  const sale = await entryAt(db, Number(saleAt));
  const entry = {
    ...sale,
    position: Number(head.position) + 1,
    entryId: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    streamId: `transaction-${String(data.transaction_id)}`,
    streamRevision: 1,
    data,
    recordedAt: new Date().toISOString(),
    prevHash: head.hash,
  };
  const forged = { ...entry, hash: entryHash(entry) };
  await insertEntry(db, forged);
  await rebuildTree(db);
  return forged;
}

/** Writes a whole entry as a row of the log, as an operator with psql would. */
async function insertEntry(db: Sql, entry: StoredEvent): Promise<void> {
  await db.query(`insert into events (${EVENT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
    entry.position,
    entry.entryId,
    entry.streamId,
    entry.streamRevision,
    entry.type,
    JSON.stringify(entry.data),
    JSON.stringify(entry.metadata),
    entry.recordedAt,
    entry.prevHash,
    entry.hash,
  ]);
}
