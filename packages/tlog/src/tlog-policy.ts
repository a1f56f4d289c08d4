import { cosignatures, parseCosignerKey } from './cosignature';
import { parseVerifierKey, type NoteVerifier } from './signed-note';

/*
 * Trust policies (c2sp.org/tlog-policy): which logs' checkpoints are accepted, which witnesses'
 * cosignatures count, and the quorum of them a checkpoint needs. The service reads one
 * (LOG_POLICY_FILE) to know whom to ask for cosignatures; an auditor's verifier reads theirs to
 * accept a checkpoint only with its quorum. Pure: the offline verifier uses it.
 */

export class PolicyError extends Error {}

export interface PolicyWitness {
  /** The policy's own name for it (group members and the quorum refer to it). */
  name: string;
  key: NoteVerifier;
  /** Its tlog-witness submission prefix, where the log asks for cosignatures. */
  url?: string;
}

interface Group {
  threshold: number;
  members: string[];
}

export interface TlogPolicy {
  logs: { key: NoteVerifier; url?: string }[];
  witnesses: PolicyWitness[];
  /** The name of the witness or group that must have witnessed a checkpoint; `none` for no cosignature at all. */
  quorum: string;
  groups: ReadonlyMap<string, Group>;
}

/** Parses a policy file; throws a `PolicyError` naming the line and what is wrong with it. */
export function parseTlogPolicy(text: string): TlogPolicy {
  const logs: TlogPolicy['logs'] = [];
  const witnesses: PolicyWitness[] = [];
  const groups = new Map<string, Group>();
  let quorum: string | undefined;
  const defined = (name: string) => name === 'none' || groups.has(name) || witnesses.some((w) => w.name === name);
  const rawKeys = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const fail = (message: string): never => {
      throw new PolicyError(`policy line ${i + 1}: ${message}`);
    };
    // eslint-disable-next-line no-control-regex -- a policy may hold no control character but tabs and newlines
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(raw)) fail('a control character other than tab');
    const words = raw.trim().split(/[ \t]+/);
    if (words[0] === '' || words[0].startsWith('#')) return;
    const key = (vkey: string | undefined, parse: (vkey: string) => NoteVerifier) => {
      if (!vkey) return fail('a vkey is missing');
      let parsed: NoteVerifier;
      try {
        parsed = parse(vkey);
      } catch (error) {
        return fail((error as Error).message);
      }
      const raw = parsed.key.export({ format: 'der', type: 'spki' }).toString('hex');
      if (rawKeys.has(raw)) fail('a key listed twice');
      rawKeys.add(raw);
      return parsed;
    };
    switch (words[0]) {
      case 'log':
        if (words.length > 3) fail('log <vkey> [<url>]');
        logs.push({ key: key(words[1], (v) => parseVerifierKey(v)), url: words[2] });
        return;
      case 'witness':
        if (words.length < 3 || words.length > 4) fail('witness <name> <vkey> [<url>]');
        if (defined(words[1])) fail(`the name ${words[1]} is defined already`);
        witnesses.push({ name: words[1], key: key(words[2], parseCosignerKey), url: words[3] });
        return;
      case 'group': {
        const [, name, k, ...members] = words;
        if (!name || members.length === 0) fail('group <name> all|any|<k> <name>...');
        if (defined(name)) fail(`the name ${name} is defined already`);
        for (const member of members) {
          if (member === 'none' || !defined(member))
            fail(`the group member ${member} is not a witness or group defined above`);
        }
        if (new Set(members).size !== members.length) fail('a member listed twice');
        const threshold = k === 'all' ? members.length : k === 'any' ? 1 : /^[1-9]\d*$/.test(k) ? Number(k) : NaN;
        if (!(threshold >= 1 && threshold <= members.length))
          fail(`the threshold ${k} is not all, any, or 1 to ${members.length}`);
        groups.set(name, { threshold, members });
        return;
      }
      case 'quorum':
        if (words.length !== 2) fail('quorum <name>');
        if (quorum !== undefined) fail('a second quorum line');
        if (!defined(words[1])) fail(`the quorum ${words[1]} is not a witness or group defined above`);
        quorum = words[1];
        return;
      default:
        fail(`unknown keyword ${words[0]}`);
    }
  });
  if (quorum === undefined) throw new PolicyError('the policy has no quorum line');
  return { logs, witnesses, quorum, groups };
}

/** Whether the witnesses named (by the policy's names) meet the quorum. */
export function quorumMet(policy: TlogPolicy, cosigned: ReadonlySet<string>): boolean {
  const met = (name: string): boolean => {
    if (name === 'none') return true;
    const group = policy.groups.get(name);
    if (!group) return cosigned.has(name);
    return group.members.filter(met).length >= group.threshold;
  };
  return met(policy.quorum);
}

/**
 * The policy's witnesses that cosigned the note, each with its cosignature's time (POSIX seconds),
 * in the policy's order, and whether they meet its quorum: what `verify-chain checkpoint --policy`
 * checks and the service reports. A `NoteError` when a cosignature of one of them does not verify.
 */
export function policyCosignatures(
  note: string,
  policy: TlogPolicy,
): { cosigned: Map<PolicyWitness, number>; met: boolean } {
  const found = cosignatures(
    note,
    policy.witnesses.map((w) => w.key),
  );
  const cosigned = new Map(
    policy.witnesses.filter((w) => found.has(w.key)).map((w) => [w, found.get(w.key)!] as const),
  );
  return { cosigned, met: quorumMet(policy, new Set([...cosigned.keys()].map((w) => w.name))) };
}
