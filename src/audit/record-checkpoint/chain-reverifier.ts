import type { KeyObject } from 'node:crypto';
import { fromStoredTree, loadFrontier } from '../../platform/event-store/merkle-store';
import {
  EMPTY_ROOT,
  GENESIS_HASH,
  MerkleFrontier,
  WriterCheck,
  checkSignature,
  consistencyPath,
  inclusionPath,
  leafHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type SignedTreeHead,
} from '@crcs/tlog';
import type { Database, Sql } from '../../platform/event-store/sql';
import { matchesStoredHash, readStoredEntries } from '../../platform/verification/stored-entries';
import { writersRequiredFrom } from '../../platform/event-store/writer-authentication';
import { SigningRefused } from '../signing-refused';

/** A tree the signer has verified: `size` entries, the last with chain hash `chainHash`, signed at `signedAt` (ms). */
export interface Verified {
  size: number;
  chainHash: string;
  frontier: MerkleFrontier;
  signedAt: number;
}

/**
 * The log recomputed from signed tree heads, never from positions remembered: the stored tree must
 * have a head's signed root and hold the entry it covered, and every entry after it is recomputed
 * (hash, link, position, writer authenticator) into a copy of the tree. The signer signs only a tree
 * checked so; and the whole signed part is checked again, one span between two witnessed heads at a
 * time, in rounds of bounded time. Every failure is a `SigningRefused`.
 */
export class ChainReverifier {
  /** Where the re-verification goes on: the index of the witnessed head that ends the next span to check. */
  private cursor = 0;
  /**
   * What this process appended since the last signed head, position to chain hash: it signs over
   * no difference, even one made with the key (a rewrite recomputing hashes and authenticators).
   */
  private readonly appended = new Map<number, string>();
  /** The authentication boundary's position once known: from it on, every entry must carry a valid authenticator. */
  private writersRequiredFrom: number | undefined;

  /** `writerKey`: the key entries' authenticators are made with; without it, none is checked. */
  constructor(
    private readonly db: Database,
    private readonly writerKey: Buffer | undefined,
  ) {}

  /** Entries this process committed, to be found as they were when they are signed. */
  remember(events: readonly { position: number; hash: string }[]): void {
    for (const e of events) this.appended.set(e.position, e.hash);
  }

  /** Entries up to `size` are signed: from now on the re-verification checks them. */
  forgetUpTo(size: number): void {
    for (const position of this.appended.keys()) if (position <= size) this.appended.delete(position);
  }

  /**
   * Re-verifies `heads` (the witness's) from where the last round stopped, span by span (each the
   * entries between two witnessed heads, checked from the first head's signed root to the
   * second's), until `performance.now()` passes `until`. Resolves true when it went round them all.
   */
  async reverify(heads: SignedTreeHead[], keys: ReadonlyMap<string, KeyObject>, until: number): Promise<boolean> {
    while (performance.now() < until) {
      if (this.cursor >= heads.length) {
        this.cursor = 0;
        return true;
      }
      const i = this.cursor++;
      await this.checkSpan(heads[i - 1], heads[i], keys);
    }
    return false;
  }

  /** The entries between two witnessed heads, from the first's signed root, must give the second's. */
  private async checkSpan(
    before: SignedTreeHead | undefined,
    head: SignedTreeHead,
    keys: ReadonlyMap<string, KeyObject>,
  ): Promise<void> {
    if (checkSignature(head, keys) !== 'valid') {
      throw new SigningRefused({
        kind: 'witness',
        position: head.tree_size,
        detail: `the witnessed tree head of size ${head.tree_size} does not carry this key's signature`,
      });
    }
    const from = before?.tree_size ?? 0;
    if (head.tree_size <= from) return;
    const start = await this.trustedTree(from, before ? hex(before.root_hash) : EMPTY_ROOT, 0);
    const end = await this.verifyEntries(this.db, start, head.tree_size);
    if (!end.frontier.root().equals(hex(head.root_hash))) {
      throw new SigningRefused({
        kind: 'modified',
        position: head.tree_size,
        detail:
          `entries ${from + 1} to ${head.tree_size} no longer give the root of the tree head signed at ${head.timestamp}: ` +
          'an entry among them was changed, inserted, deleted or moved',
      });
    }
  }

  /** A signed head, checked against the stored tree: the tree to extend. */
  trusted(head: SignedTreeHead): Promise<Verified> {
    return this.trustedTree(head.tree_size, hex(head.root_hash), Date.parse(head.timestamp));
  }

  /** The stored tree of the first `size` entries, checked to have the signed `root`, and the entry it ends with. */
  private async trustedTree(size: number, root: Buffer, signedAt: number): Promise<Verified> {
    const frontier = await loadFrontier(this.db, size).catch(() => undefined);
    if (!frontier?.root().equals(root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: size,
        detail: `the stored Merkle tree of the first ${size} entries does not have the signed root ${root.toString('hex')}`,
      });
    }
    if (size === 0) return { size, chainHash: GENESIS_HASH, frontier, signedAt };
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [size]);
    const path = await fromStoredTree(this.db, (node) => inclusionPath(size - 1, size, node));
    if (!entry || !verifyInclusion(size - 1, size, leafHash(entry.hash), path, root)) {
      throw new SigningRefused({
        kind: 'modified',
        position: size,
        detail: `the entry at position ${size} is not the one the signed tree head of size ${size} covers: an entry up to it was rewritten`,
      });
    }
    return { size, chainHash: entry.hash, frontier, signedAt };
  }

  /** Whether the stored tree proves the tree of `later` consistent with the one of `earlier`. */
  async storedConsistent(earlier: SignedTreeHead, later: SignedTreeHead): Promise<boolean> {
    const proof = await fromStoredTree(this.db, (node) =>
      consistencyPath(earlier.tree_size, later.tree_size, node),
    ).catch(() => []);
    return verifyConsistency(earlier.tree_size, later.tree_size, proof, hex(earlier.root_hash), hex(later.root_hash));
  }

  /** The entry the signed head ends with must still be there, as it was. */
  async checkSignedEntry(signed: Verified): Promise<void> {
    if (signed.size === 0) return;
    const [entry] = await this.db.query<{ hash: string }>('select hash from events where position = $1', [signed.size]);
    if (entry?.hash === signed.chainHash) return;
    throw new SigningRefused({
      kind: entry ? 'modified' : 'deleted',
      position: signed.size,
      detail: entry
        ? `the entry at position ${signed.size}, the last of the signed tree head, was replaced: the log was cut or rewritten below the head`
        : `the entry at position ${signed.size}, the last of the signed tree head, is gone: entries were cut from the end`,
    });
  }

  /** Entries this process appended and remembers past the log's end are gone: the log was cut before they were signed. */
  checkNothingRememberedPast(end: number): void {
    const beyond = [...this.appended.keys()].filter((position) => position > end);
    if (beyond.length === 0) return;
    const last = Math.max(...beyond);
    throw new SigningRefused({
      kind: 'deleted',
      position: end + 1,
      detail: `the log ends at entry ${end}, but this process appended entries up to position ${last}: they were cut from its end before they were signed`,
      missing_positions: { from: end + 1, to: last },
    });
  }

  /** Recomputes entries `from.size + 1` to `to`, each linked to the one before, into a copy of the tree. */
  async verifyEntries(sql: Sql, from: Verified, to: number): Promise<Verified> {
    const frontier = from.frontier.copy();
    let chainHash = from.chainHash;
    const missing = () =>
      new SigningRefused({
        kind: 'deleted',
        position: frontier.size + 1,
        detail: `the entry at position ${frontier.size + 1} is missing`,
      });
    // Entries no service process wrote (inserted or rewritten by SQL) are never signed. The boundary, once
    // known, is kept: an entry whose type was edited later cannot move it.
    this.writersRequiredFrom ??= this.writerKey && (await writersRequiredFrom(sql, from.size + 1));
    const writers = this.writerKey && new WriterCheck(this.writerKey, this.writersRequiredFrom);
    for await (const batch of readStoredEntries(sql, frontier.size + 1, to)) {
      for (const entry of batch) {
        const e = entry.event;
        const refuse = (detail: string) => new SigningRefused({ kind: 'modified', position: e.position, detail });
        if (e.position !== frontier.size + 1) throw missing();
        if (!matchesStoredHash(entry))
          throw refuse(`the entry at position ${e.position} does not match its stored hash`);
        if (e.prevHash !== chainHash)
          throw refuse(`the entry at position ${e.position} does not link to the entry before it`);
        const unauthenticated = writers?.problem(e.position, e.type, e.hash, e.writerMac);
        if (unauthenticated)
          throw new SigningRefused({ kind: 'unauthenticated', position: e.position, detail: unauthenticated });
        const ours = this.appended.get(e.position);
        if (ours !== undefined && ours !== e.hash)
          throw refuse(
            `the entry at position ${e.position} is not the one this process appended (chain hash ${ours}, now ${e.hash}): it was rewritten before it was signed`,
          );
        frontier.append(leafHash(e.hash));
        chainHash = e.hash;
      }
    }
    if (frontier.size < to) throw missing();
    return { size: to, chainHash, frontier, signedAt: from.signedAt };
  }

  /** The stored tree must be consistent with the signed head and have the root just recomputed from the entries. */
  async checkStoredTree(tx: Sql, signed: Verified, verified: Verified): Promise<void> {
    const { proof, root } = await fromStoredTree(tx, (node) => ({
      proof: consistencyPath(signed.size, verified.size, node),
      root: treeRoot(verified.size, node),
    }));
    if (
      !root.equals(verified.frontier.root()) ||
      !verifyConsistency(signed.size, verified.size, proof, signed.frontier.root(), root)
    ) {
      throw new SigningRefused({
        kind: 'modified',
        position: verified.size,
        detail: `the stored Merkle tree of ${verified.size} entries is not the one its entries give, or not consistent with the signed head of size ${signed.size}`,
      });
    }
  }
}

const hex = (text: string): Buffer => Buffer.from(text, 'hex');
