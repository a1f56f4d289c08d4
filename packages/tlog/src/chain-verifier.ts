import type { KeyObject } from 'node:crypto';
import {
  CHECKPOINT_EVENT_TYPE,
  checkSignature,
  isTreeHeadCheckpoint,
  type CheckpointData,
  type SignedTreeHead,
} from './checkpoint';
import type { LogEntry } from './log-entry';
import { GENESIS_HASH, entryHash, entryHashAt } from './entry-hash';
import { MerkleFrontier, leafHash } from './merkle-tree';
import { StreamRevisions } from './stream-revisions';
import { WriterCheck } from './writer-mac';
import { ENTRY_REFERENCES, RULES_IN_LOG_TYPE, RULE_ENTRY_TYPES, SALE_ENTRY_TYPE, asEntryRef } from './rule-references';

/**
 * An entry to verify. `entryHash`: the SHA-256 of the entry at its stored position, when the caller
 * hashed its stored bytes (on worker threads): a match spares rebuilding its canonical JSON.
 * `leafHash`: its Merkle leaf hash, when the caller computed it there too. `treeNodes`: the roots of
 * the subtrees over its leaf and the leaves of the entries before it in its batch, as `runNodes`
 * gives them: only for entries of a batch pushed whole, in order, and nothing between.
 * `references`: of a sale, the members of its data that name entries, as `entryReferences` cuts
 * them, when the caller did: the verifier then reads nothing else of its data.
 */
export type VerifiableEntry = LogEntry & {
  entryHash?: string;
  leafHash?: Buffer;
  treeNodes?: Buffer;
  writerMac?: string | null;
  references?: string;
};

export const BREAK_KINDS = [
  'modified',
  'deleted',
  'reordered',
  'inserted',
  'unauthenticated',
  'rule_reference',
] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];

export interface ChainBreak {
  kind: BreakKind;
  /** Where the entry is stored now. */
  position: number;
  entry_id: string;
  detail: string;
  expected_prev_hash?: string;
  actual_prev_hash?: string;
  expected_hash?: string;
  stored_hash?: string;
  /** `reordered`: the position the entry's hash was computed for, i.e. where it belongs. */
  original_position?: number;
  /** `deleted`: the positions (as the chain numbered them) of the entries that are gone. */
  missing_positions?: { from: number; to: number };
  /** A break that a signed checkpoint revealed: the checkpoint entry. */
  checkpoint?: { checkpoint: number; position: number; entry_id: string };
  /** A break that a witnessed tree head revealed: its tree size. */
  witnessed_tree_size?: number;
}

export interface CheckpointSummary {
  count: number;
  /** False when no public key was given: checkpoints were then checked against the chain but not for their signatures. */
  signatures_checked: boolean;
  /** The last checkpoint seen: an auditor compares it with one kept from an earlier verification. */
  last: { checkpoint: number; position: number; hash: string } | null;
}

export interface TreeSummary {
  /** The Merkle tree over the entries read, in their stored order: compare with a tree head kept from before. */
  tree_size: number;
  root_hash: string;
  /** Tree heads of the witness file checked against it; null when none was given. */
  witnessed_heads: number | null;
}

export interface ChainVerification {
  total_count: number;
  verified_count: number;
  break_count: number;
  breaks: ChainBreak[];
  checkpoints: CheckpointSummary;
  /** Null when verifying a range without the tree before it. */
  tree: TreeSummary | null;
}

export interface VerifierOptions {
  /** Start here instead of at genesis, trusting the prev_hash of the first entry read. */
  fromPosition?: number;
  /** Checkpoint signers' public keys by key id (see `keyRing`); without them signatures are not checked. */
  checkpointKeys?: ReadonlyMap<string, KeyObject>;
  /**
   * The tree of the entries before `fromPosition` (empty from genesis): without it a range's tree
   * heads are not checked.
   */
  treeBefore?: MerkleFrontier;
  /**
   * Signed tree heads kept outside the database (the witness file): the log must extend every one,
   * so a rewritten, truncated or re-signed tail is caught even with its checkpoints deleted.
   */
  witness?: readonly SignedTreeHead[];
  /**
   * The writer authentication key (writer-mac.ts): given it, an entry without a valid
   * authenticator from the authentication boundary on is `unauthenticated`: no service process wrote it.
   */
  writerKey?: Buffer;
  /** A range that starts after the boundary: its position, found before the range (the boundary entry is not read). */
  writersRequiredFrom?: number;
}

/**
 * How far the verifier looks for a moved entry: entries swapped further apart than this, or an
 * inserted run longer than this, are still breaks but may be classified less precisely. It bounds
 * the memory used besides the per-stream revisions.
 */
const WINDOW = 64;

/**
 * A log broken everywhere (say, every hash recomputed another way) must not take the verifier's
 * memory with it: past this many, breaks are counted but not listed, and moved entries are no
 * longer searched for.
 */
export const MAX_LISTED_BREAKS = 1000;

/** An entry taken into the chain, in chain order. A ring of these is recycled, not allocated per entry. */
interface Link {
  /** The position its hash covers: where it belongs. */
  slot: number;
  /** Where it is stored. */
  position: number;
  entryId: string;
  hash: string;
  prevHash: string | undefined;
  broken: boolean;
  streamId: string;
  /** The stream's revision before this entry, to undo it if the entry turns out to be inserted. */
  priorRevision: number | undefined;
  /** Stored this far from where it belongs, unlike the entries before it: moved, or the first of a shifted run. */
  unconfirmedShift: number | undefined;
}

interface Waiting {
  e: VerifiableEntry;
  arrival: number;
  broken: boolean;
  /** A later entry joined the chain before it. */
  passedOver: boolean;
}

/**
 * Checks entries pushed in storage order (the database's position order, or a file's line order)
 * and rebuilds the chain from the links themselves: each entry's prev_hash names its predecessor.
 *
 * - An entry whose recomputed hash differs from the stored one was `modified`.
 * - When no entry links to the last one, the chain is cut: positions skipped were `deleted`,
 *   otherwise the link itself was rewritten (`modified`).
 * - An entry stored away from the position its hash covers, or that arrives before its
 *   predecessor, was `reordered` (a swap reports both entries).
 * - Two entries claiming one predecessor: the one that no later entry continues was `inserted`,
 *   and the entries stored after it, shifted by one, are not breaks of their own.
 * - Stream revisions must run 1, 2, 3...; checkpoints must vouch for the hash of the entry before
 *   them and, given keys, carry a valid signature.
 * - Given the writer key, an entry of the chain without a valid writer authenticator (from the
 *   authentication boundary, a `WriterAuthenticationRequired` entry, on) is `unauthenticated`: no
 *   service process wrote it as it is.
 * - A sale that names its rule or policy entry (rule-references.ts) must name an earlier rule entry
 *   whose fields hash, as they are stored now, to the hash it names; from the first imported rule
 *   on, a sale that names no rule entry is a break too. Either is a `rule_reference` break.
 *
 * Memory: a window of WINDOW entries, at most MAX_LISTED_BREAKS breaks, the last revision of each
 * stream, and the position and hash of each rule entry.
 */
export class ChainVerifier {
  private readonly ring: Link[] = Array.from({ length: WINDOW }, () => emptyLink());
  /** Index of the tip (the last link) in the ring, and how many ring slots hold links. */
  private tipIndex = 0;
  private linked = 1;
  /** Stored position minus hashed position, after entries inserted or deleted before here. */
  private offset = 0;
  private readonly waiting: Waiting[] = [];
  private readonly revisions = new StreamRevisions();
  private readonly midChain: boolean;
  private lastArrival = 0;
  private total = 0;
  private brokenCount = 0;
  private breakCount = 0;
  private readonly breaks: ChainBreak[] = [];
  /** Entries reported deleted: each explains one skipped stream revision or checkpoint number further on. */
  private unexplainedGaps = 0;
  private checkpoints = 0;
  private lastCheckpointNumber: number | undefined;
  private lastCheckpoint: CheckpointSummary['last'] = null;
  private finished: ChainVerification | undefined;
  /** The tree over the entries pushed, in their stored order. */
  private readonly tree: MerkleFrontier | undefined;
  private readonly treeStart: number;
  /** Tree roots taken when a tree-head checkpoint arrived, until it is linked, by entry id. */
  private readonly rootsBefore = new Map<string, string>();
  private readonly witness: SignedTreeHead[];
  private witnessed = 0;
  private witnessMismatch = false;
  private lastPushed: LogEntry | undefined;
  private readonly writers: WriterCheck | undefined;
  /** Rule entries by position: the hash of their fields as stored, which a sale's reference must name. */
  private readonly ruleEntries = new Map<number, string>();
  /** The position of the first imported rule, from which every sale names its rule entry. */
  private rulesInLogFrom: number | undefined;

  constructor(private readonly options: VerifierOptions = {}) {
    const from = options.fromPosition ?? 1;
    this.midChain = from > 1;
    this.tree = options.treeBefore?.copy() ?? (this.midChain ? undefined : MerkleFrontier.empty());
    this.treeStart = this.tree?.size ?? 0;
    this.witness = [...(options.witness ?? [])].sort((a, b) => a.tree_size - b.tree_size);
    this.writers = options.writerKey && new WriterCheck(options.writerKey, options.writersRequiredFrom);
    Object.assign(this.tip, { slot: from - 1, position: from - 1, hash: GENESIS_HASH });
    this.lastArrival = from - 1;
  }

  push(e: VerifiableEntry): void {
    if (this.finished) throw new Error('push after result()');
    this.growTree(e);
    this.total += 1;
    let broken = false;
    if (this.total === 1 && this.midChain) {
      // A range trusts its first entry's prev_hash; what it cannot trust is a first entry past its start.
      this.tip.hash = e.prevHash;
      if (e.position > this.lastArrival + 1) broken = this.reportMissing(e, this.tip.slot + 1, e.position - 1);
      this.tip.slot = e.position - 1;
    }
    // The database reads in position order; only a file can bring a position after a higher one.
    broken ||=
      e.position <= this.lastArrival &&
      this.report(e, 'reordered', { detail: `position ${e.position} comes after position ${this.lastArrival}` });
    this.lastArrival = e.position;
    if (this.waiting.length === 0 && e.prevHash === this.tip.hash) {
      this.follow(e, broken);
      return;
    }
    this.waiting.push({ e, arrival: this.total, broken, passedOver: false });
    this.resolve(false);
  }

  result(): ChainVerification {
    if (!this.finished) {
      this.resolve(true);
      const shifted = this.tip.unconfirmedShift;
      if (shifted !== undefined) this.reportMoved(this.tip, shifted);
      this.checkWitness(Infinity);
      this.finished = {
        total_count: this.total,
        verified_count: this.total - this.brokenCount,
        break_count: this.breakCount,
        breaks: this.breaks.sort((a, b) => a.position - b.position),
        checkpoints: {
          count: this.checkpoints,
          signatures_checked: this.options.checkpointKeys !== undefined,
          last: this.lastCheckpoint,
        },
        tree: this.tree
          ? {
              tree_size: this.tree.size,
              root_hash: this.tree.root().toString('hex'),
              witnessed_heads: this.options.witness ? this.witnessed : null,
            }
          : null,
      };
    }
    return this.finished;
  }

  private get tip(): Link {
    return this.ring[this.tipIndex];
  }

  /** Takes the waiting entries into the chain as far as their links allow; `final`: no more entries will come. */
  private resolve(final: boolean): void {
    while (this.waiting.length > 0) {
      const next = this.waiting.findIndex((w) => w.e.prevHash === this.tip.hash);
      if (next >= 0) {
        for (let i = 0; i < next; i++) this.waiting[i].passedOver = true;
        const [w] = this.waiting.splice(next, 1);
        this.follow(w.e, w.broken);
        continue;
      }
      if (this.dropForkedBranch(final)) continue;
      const full = final || this.waiting.length >= WINDOW;
      const oldest = this.waiting[0];
      if (oldest.passedOver && (full || this.total - oldest.arrival > WINDOW)) {
        this.waiting.shift();
        this.evictInserted(oldest);
        continue;
      }
      if (!full) return;
      // Nothing links to the tip, even a window later: the chain is cut here.
      this.cutTo(this.waiting.shift()!);
    }
  }

  /**
   * A waiting entry links to an earlier link, not to the tip: the links after that one are a
   * branch that the chain does not continue, i.e. inserted. Needs a successor of the waiting
   * entry as proof (or the end of the input), so that a rewritten link is not mistaken for a fork.
   */
  private dropForkedBranch(final: boolean): boolean {
    for (let back = 1; back < this.linked; back++) {
      const link = this.ring[(this.tipIndex - back + WINDOW) % WINDOW];
      const rival = this.waiting.find((w) => w.e.prevHash === link.hash);
      if (!rival) continue;
      if (!final && !this.waiting.some((w) => w.e.prevHash === rival.e.hash)) return false;
      for (let i = 0; i < back; i++) this.unlinkTip();
      return true;
    }
    return false;
  }

  private unlinkTip(): void {
    const tip = this.tip;
    this.mark(tip, 'inserted', {
      detail: `no later entry continues from it: entry ${tip.entryId} was inserted after position ${tip.position - 1}`,
    });
    if (tip.priorRevision === undefined) this.revisions.delete(tip.streamId);
    else this.revisions.set(tip.streamId, tip.priorRevision);
    this.offset += 1;
    this.tipIndex = (this.tipIndex - 1 + WINDOW) % WINDOW;
    this.linked -= 1;
  }

  private evictInserted(w: Waiting): void {
    if (!w.broken) this.report(w.e, 'inserted', { detail: 'no entry of the chain links to it' });
  }

  /** `w` follows the tip though it does not link to it. */
  private cutTo(w: Waiting): void {
    const { e } = w;
    const slot = this.hashedPosition(e, true) ?? e.position - this.offset;
    const tip = this.tip;
    const prevHashes = { expected_prev_hash: tip.hash, actual_prev_hash: e.prevHash };
    if (slot <= tip.slot) {
      this.evictInserted(w);
      return;
    }
    let broken = w.broken;
    if (slot > tip.slot + 1) {
      broken ||= this.reportMissing(e, tip.slot + 1, slot - 1, prevHashes);
    } else {
      broken ||= this.report(e, 'modified', { detail: 'prev_hash does not match the previous entry', ...prevHashes });
    }
    this.offset = e.position - slot;
    this.resolveShift(e.position - slot);
    this.link(e, slot, broken);
  }

  /** `e` links to the tip. */
  private follow(e: VerifiableEntry, brokenAlready: boolean): void {
    let broken = brokenAlready;
    const slot = this.tip.slot + 1;
    // Stored where it belongs, its hash can only be right or wrong; stored elsewhere, it may have been moved.
    const hashed = this.hashedPosition(e, e.position - this.offset !== slot);
    if (hashed !== slot) {
      broken ||= this.report(e, 'modified', {
        detail:
          hashed === undefined
            ? 'stored hash does not match the entry'
            : `its hash is for position ${hashed}, but it follows position ${slot - 1}`,
        expected_hash: entryHashAt(e, e.position - this.offset),
        stored_hash: e.hash,
      });
    }
    const shift = hashed === slot ? e.position - slot : this.offset;
    this.resolveShift(shift);
    this.link(e, slot, broken);
    if (shift !== this.offset) this.tip.unconfirmedShift = shift;
  }

  /**
   * The previous entry was stored away from its place. If this one is shifted the same way, a
   * whole run moved (after an insertion or a deletion, already reported): the new normal. If not,
   * the previous one alone was moved.
   */
  private resolveShift(shift: number): void {
    const tip = this.tip;
    const moved = tip.unconfirmedShift;
    if (moved === undefined) return;
    tip.unconfirmedShift = undefined;
    if (shift === moved) this.offset = moved;
    else this.reportMoved(tip, moved);
  }

  private reportMoved(link: Link, shift: number): void {
    this.mark(link, 'reordered', {
      detail: `stored at position ${link.position}, but its hash is for position ${link.position - shift}`,
      original_position: link.position - shift,
    });
  }

  /** Appends `e` to the chain at `slot`, then checks what only the chain order can tell. */
  private link(e: VerifiableEntry, slot: number, brokenAlready: boolean): void {
    let broken = brokenAlready;
    const prior = this.revisions.get(e.streamId);
    const expectedRevision = prior === undefined ? (this.midChain ? e.streamRevision : 1) : prior + 1;
    if (!broken && !this.inSequence(e.streamRevision, expectedRevision)) {
      broken = this.report(e, e.streamRevision > expectedRevision ? 'deleted' : 'reordered', {
        detail: `stream ${e.streamId}: expected revision ${expectedRevision}, found ${e.streamRevision}`,
      });
    }
    this.revisions.set(e.streamId, Math.max(prior ?? 0, e.streamRevision));
    if (!broken && e.type === CHECKPOINT_EVENT_TYPE) broken = this.checkCheckpoint(e, slot);
    // In chain order, every entry (so that the boundary is known); reported when nothing else was.
    const unauthenticated = this.writers?.problem(e.position, e.type, e.hash, e.writerMac);
    if (!broken && unauthenticated !== undefined)
      broken = this.report(e, 'unauthenticated', { detail: unauthenticated });
    const unreferenced = this.ruleReferenceProblem(e);
    if (!broken && unreferenced !== undefined) broken = this.report(e, 'rule_reference', { detail: unreferenced });
    if (RULE_ENTRY_TYPES.has(e.type)) this.ruleEntries.set(e.position, e.entryHash ?? entryHash(e));
    if (e.type === RULES_IN_LOG_TYPE) this.rulesInLogFrom ??= e.position;

    this.tipIndex = (this.tipIndex + 1) % WINDOW;
    this.linked = Math.min(this.linked + 1, WINDOW);
    const tip = this.tip;
    tip.slot = slot;
    tip.position = e.position;
    tip.entryId = e.entryId;
    tip.hash = e.hash;
    tip.prevHash = e.prevHash;
    tip.broken = broken;
    tip.streamId = e.streamId;
    tip.priorRevision = prior;
    tip.unconfirmedShift = undefined;
  }

  /**
   * Why the rule and policy entries `e` names (or fails to name) do not hold, if they do not. Only a
   * sale names them: no other entry's data is read, which a verification from the database's
   * hashes does not have (`readHashedRange`).
   */
  private ruleReferenceProblem(e: VerifiableEntry): string | undefined {
    if (e.type !== SALE_ENTRY_TYPE) return undefined;
    const data = e.references === undefined ? e.data : (JSON.parse(e.references) as LogEntry['data']);
    for (const { field, names } of ENTRY_REFERENCES) {
      const given = data[field];
      if (given === undefined) continue;
      const ref = asEntryRef(given);
      if (ref === undefined) return `its ${field} is not a position and a hash`;
      // A range cannot see the rule entries before its start.
      if (ref.position < (this.options.fromPosition ?? 1)) continue;
      const hash = this.ruleEntries.get(ref.position);
      const named = `it names the ${names} entry at position ${ref.position}`;
      if (ref.position >= e.position) return `${named}, which is not earlier in the log`;
      if (hash === undefined) return `${named}, which is not a rule entry`;
      if (hash !== ref.hash)
        return `${named} with hash ${ref.hash}, but that entry's fields hash to ${hash}: the ${names} it was priced under was changed`;
    }
    if (data.rule_entry === undefined && this.rulesInLogFrom !== undefined)
      return `it names no rule entry, though the rules are in the log from position ${this.rulesInLogFrom}`;
    return undefined;
  }

  /** Returns whether the checkpoint entry itself is broken; a rewritten chain before it is reported on the entry it covers. */
  private checkCheckpoint(e: VerifiableEntry, slot: number): boolean {
    const data = e.data as unknown as CheckpointData;
    const where = { checkpoint: data.checkpoint, position: e.position, entry_id: e.entryId };
    this.checkpoints += 1;
    const keys = this.options.checkpointKeys;
    const signature = keys ? checkSignature(data, keys) : 'valid';
    if (signature !== 'valid') {
      this.lastCheckpointNumber = data.checkpoint;
      const why =
        signature === 'unknown key'
          ? `is signed by key ${data.key_id}, which is not among the keys given`
          : 'has an invalid signature';
      return this.report(e, 'modified', { detail: `checkpoint ${data.checkpoint} ${why}`, checkpoint: where });
    }
    const expectedNumber =
      this.lastCheckpointNumber === undefined ? (this.midChain ? data.checkpoint : 1) : this.lastCheckpointNumber + 1;
    this.lastCheckpointNumber = data.checkpoint;
    if (!this.inSequence(data.checkpoint, expectedNumber)) {
      return this.report(e, 'deleted', {
        detail: `expected checkpoint ${expectedNumber}, found checkpoint ${data.checkpoint}`,
        checkpoint: where,
      });
    }
    const covered = this.tip;
    const rootBefore = this.rootsBefore.get(e.entryId);
    this.rootsBefore.delete(e.entryId);
    if (data.position !== slot - 1 || data.hash !== covered.hash) {
      const since = this.lastCheckpoint ? `after position ${this.lastCheckpoint.position}` : 'from the start';
      this.mark(covered, 'modified', {
        detail:
          `checkpoint ${data.checkpoint} signed hash ${data.hash} for position ${data.position}, but the chain has ${covered.hash} ` +
          `at position ${covered.slot}: an entry ${since} up to it was rewritten`,
        expected_hash: data.hash,
        stored_hash: covered.hash,
        checkpoint: where,
      });
    } else if (
      isTreeHeadCheckpoint(data) &&
      rootBefore !== undefined &&
      this.breakCount === 0 &&
      (data.tree_size !== slot - 1 || data.root_hash !== rootBefore)
    ) {
      // The chain fixes every hash before the covered one, so only a head signed over another tree differs here.
      this.mark(covered, 'modified', {
        detail: `checkpoint ${data.checkpoint} signed Merkle root ${data.root_hash} for ${data.tree_size} entries, but the ${slot - 1} entries before it have root ${rootBefore}`,
        expected_hash: data.root_hash,
        stored_hash: rootBefore,
        checkpoint: where,
      });
    }
    this.lastCheckpoint = { checkpoint: data.checkpoint, position: data.position, hash: data.hash };
    return false;
  }

  /** The position `e`'s hash covers: its stored position, shifted by the offset, or (`search`) a nearby one. */
  private hashedPosition(e: VerifiableEntry, search: boolean): number | undefined {
    const expected = e.position - this.offset;
    const hashedHere = expected === e.position ? (e.entryHash ?? entryHash(e)) : entryHashAt(e, expected);
    if (hashedHere === e.hash) return expected;
    if (!search || this.breakCount >= MAX_LISTED_BREAKS) return undefined;
    for (let d = 1; d <= WINDOW; d++) {
      for (const candidate of [expected - d, expected + d]) {
        if (candidate >= 1 && entryHashAt(e, candidate) === e.hash) return candidate;
      }
    }
    return undefined;
  }

  /** Takes `e`'s leaf into the tree, after checking the heads that end right before it. */
  private growTree(e: VerifiableEntry): void {
    const tree = this.tree;
    if (!tree) return;
    this.checkWitness(tree.size);
    if (e.type === CHECKPOINT_EVENT_TYPE) this.rootsBefore.set(e.entryId, tree.root().toString('hex'));
    tree.grow(e.leafHash ?? leafHash(e.hash), e.treeNodes);
    this.lastPushed = e;
  }

  /** Every witnessed head up to `size` entries (all of them at the end) against the tree as it stands. */
  private checkWitness(size: number): void {
    const tree = this.tree!;
    while (this.witnessed < this.witness.length && this.witness[this.witnessed].tree_size <= size) {
      const head = this.witness[this.witnessed++];
      if (head.tree_size < this.treeStart) continue;
      const keys = this.options.checkpointKeys;
      const signature = keys ? checkSignature(head, keys) : 'valid';
      const last = this.lastPushed;
      const at = { position: last?.position ?? 0, entry_id: last?.entryId ?? '', witnessed_tree_size: head.tree_size };
      if (signature !== 'valid') {
        this.list({
          kind: 'modified',
          ...at,
          detail: `the witnessed tree head of size ${head.tree_size} ${signature === 'invalid' ? 'has an invalid signature' : `is signed by key ${head.key_id}, which is not among the keys given`}`,
        });
      } else if (head.tree_size > tree.size) {
        this.list({
          kind: 'deleted',
          ...at,
          detail: `the log ends at entry ${tree.size}, but a tree head of size ${head.tree_size} was witnessed at ${head.timestamp}: entries were cut from its end`,
          missing_positions: { from: tree.size + 1, to: head.tree_size },
        });
      } else if (!this.witnessMismatch && tree.root().toString('hex') !== head.root_hash) {
        // Every later head then differs too: the first is the one that says where.
        this.witnessMismatch = true;
        this.list({
          kind: 'modified',
          ...at,
          detail:
            `the first ${head.tree_size} entries have Merkle root ${tree.root().toString('hex')}, but the tree head witnessed at ${head.timestamp} ` +
            `has ${head.root_hash}: an entry up to position ${head.tree_size} was changed, inserted, deleted or moved`,
          expected_hash: head.root_hash,
          stored_hash: tree.root().toString('hex'),
        });
      }
    }
  }

  /** `found` is `expected`, or skips no more numbers than the deletions already reported explain. */
  private inSequence(found: number, expected: number): boolean {
    if (found === expected) return true;
    const skipped = found - expected;
    if (skipped < 0 || skipped > this.unexplainedGaps) return false;
    this.unexplainedGaps -= skipped;
    return true;
  }

  private reportMissing(
    e: VerifiableEntry,
    from: number,
    to: number,
    fields: Pick<ChainBreak, 'expected_prev_hash' | 'actual_prev_hash'> = {},
  ): true {
    this.unexplainedGaps += to - from + 1;
    const detail =
      from === to
        ? `the entry at position ${from} is missing`
        : `the entries at positions ${from} to ${to} are missing`;
    return this.report(e, 'deleted', { detail, missing_positions: { from, to }, ...fields });
  }

  /** Records a break of `e`; returns true, so that a caller can remember the entry is broken. */
  private report(e: VerifiableEntry, kind: BreakKind, fields: BreakFields): true {
    this.brokenCount += 1;
    this.list({ kind, position: e.position, entry_id: e.entryId, ...fields });
    return true;
  }

  /** A break of an entry already linked; counted once however many breaks name it. */
  private mark(link: Link, kind: BreakKind, fields: BreakFields): void {
    if (!link.broken) this.brokenCount += 1;
    link.broken = true;
    this.list({ kind, position: link.position, entry_id: link.entryId, ...fields });
  }

  private list(chainBreak: ChainBreak): void {
    this.breakCount += 1;
    if (this.breaks.length < MAX_LISTED_BREAKS) this.breaks.push(chainBreak);
  }
}

type BreakFields = Omit<ChainBreak, 'kind' | 'position' | 'entry_id'>;

function emptyLink(): Link {
  return {
    slot: 0,
    position: 0,
    entryId: '',
    hash: '',
    prevHash: undefined,
    broken: false,
    streamId: '',
    priorRevision: undefined,
    unconfirmedShift: undefined,
  };
}
