import { MerkleFrontier, leafHash, withNodes, type NodeKey, type NodeLookup, type TreeNode } from '@crcs/tlog';
import { prepared, type Database, type Sql } from './sql';

/**
 * The Merkle tree's full subtrees in `merkle_nodes`, written in the append transaction with the
 * entries they cover: the tree always has exactly as many leaves as the log has entries. A node
 * already there is overwritten: only a log cut behind the service's back (which the signer and the
 * verifiers report) leaves nodes past its end.
 */

export async function readNodes(sql: Sql, keys: NodeKey[]): Promise<TreeNode[]> {
  if (keys.length === 0) return [];
  const rows = await sql.query<{ level: number; idx: string; hash: string }>(
    `select n.level, n.idx, encode(n.hash, 'hex') as hash
       from merkle_nodes n join unnest($1::int[], $2::bigint[]) as k(level, idx) on n.level = k.level and n.idx = k.idx`,
    [keys.map((k) => k.level), keys.map((k) => k.index)],
  );
  return rows.map((r) => ({ level: r.level, index: Number(r.idx), hash: Buffer.from(r.hash, 'hex') }));
}

/**
 * Writes nodes: levels, indices and hex hashes in three parameters numbered from `first`, only
 * `when` that holds, so that the event store can make it part of the statement that appends a batch
 * (sql-event-store.ts).
 */
export const insertNodes = (first: number, when = 'true'): string => `insert into merkle_nodes (level, idx, hash)
  select level, idx, decode(hash, 'hex') from unnest($${first}::int[], $${first + 1}::bigint[], $${first + 2}::text[]) as n(level, idx, hash)
  where ${when}
  on conflict (level, idx) do update set hash = excluded.hash`;

export const nodeParams = (nodes: TreeNode[]): unknown[] => [
  nodes.map((n) => n.level),
  nodes.map((n) => n.index),
  nodes.map((n) => n.hash.toString('hex')),
];

export async function writeNodes(sql: Sql, nodes: TreeNode[]): Promise<void> {
  if (nodes.length > 0) await sql.query(prepared(insertNodes(1)), nodeParams(nodes));
}

/** Builds something from the stored tree, reading the nodes it needs in one query. */
export const fromStoredTree = <T>(sql: Sql, build: (node: NodeLookup) => T): Promise<T> =>
  withNodes(build, (keys) => readNodes(sql, keys));

export const loadFrontier = (sql: Sql, size: number): Promise<MerkleFrontier> =>
  fromStoredTree(sql, (node) => MerkleFrontier.of(size, node));

const BATCH = 5000;

/**
 * Gives the tree the entries it does not cover yet: a log written before the tree existed, once.
 * Under the chain-head lock, so no append interleaves.
 */
export async function catchUpTree(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    const [head] = await tx.query<{ position: string }>('select position from event_store_head where id for update');
    const [built] = await tx.query<{ size: string }>(
      'select coalesce(max(idx) + 1, 0) as size from merkle_nodes where level = 0',
    );
    const frontier = await loadFrontier(tx, Number(built.size));
    while (frontier.size < Number(head.position)) {
      const rows = await tx.query<{ hash: string }>(
        'select hash from events where position > $1 order by position limit $2',
        [frontier.size, BATCH],
      );
      if (rows.length === 0) break;
      await writeNodes(
        tx,
        rows.flatMap((row) => frontier.append(leafHash(row.hash))),
      );
    }
  });
}
