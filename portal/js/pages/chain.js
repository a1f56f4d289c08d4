import { call } from '../api.js';
import { copy, copyable, h, load, notice, pageHeading, region, show, table, utc, words } from '../dom.js';

/** The chain alarms this page is about: a witness's refusal, and a stored cosignature that no longer verifies. */
const WITNESSING_SOURCES = ['witness', 'cosignatures'];

/** The latest checkpoint, who cosigned it and whether that meets the policy's quorum, from GET /admin/audit/witnessing. */
export const chainPage = {
  path: 'chain',
  title: 'Checkpoint and witnesses',
  roles: ['auditor', 'admin'],
  render(main) {
    const result = region('Checkpoint and witnesses');
    main.append(
      ...pageHeading(
        'Checkpoint and witnesses',
        'The latest checkpoint the log signed, and the independent witnesses asked to cosign it. A witness cosigns only a checkpoint that extends every one it cosigned before, so a log rolled back, cut or rewritten cannot gather its quorum.',
      ),
      result,
    );
    showWitnessing(result);
  },
};

async function showWitnessing(container) {
  // /health lists the chain alarms raised since the service started (the banner above every page reads it too).
  const [state, health] = await Promise.all([
    load(container, '/admin/audit/witnessing', 'the checkpoint and its witnesses'),
    call('GET', '/health', { key: null }),
  ]);
  if (!state) return;
  const alarms = (health.body?.chain?.alarms ?? []).filter((alarm) => WITNESSING_SOURCES.includes(alarm.source));
  show(
    container,
    h('h2', {}, 'The log'),
    h('dl', { class: 'facts keys' }, fact('Origin', words(state.origin)), fact('Verifier key', copyable(state.vkey))),
    h('h2', {}, 'Latest checkpoint'),
    state.checkpoint
      ? h(
          'dl',
          { class: 'facts keys' },
          fact('Tree size', state.checkpoint.tree_size.toLocaleString('en-US')),
          fact('Root hash', copyable(state.checkpoint.root_hash)),
          fact('Signed', utc(state.checkpoint.signed_at)),
        )
      : h(
          'p',
          { class: 'empty' },
          'No checkpoint is signed yet: the first comes at most CHECKPOINT_MAX_AGE_S seconds after the first entries.',
        ),
    h('h2', {}, 'Witnesses'),
    state.policy ? policyPart(state.policy, state.checkpoint) : noPolicy(),
    h('h2', {}, 'Witness alarms'),
    alarms.length > 0
      ? table({
          caption: 'Refusals and cosignatures that do not verify, since the service started',
          rows: alarms,
          columns: [
            { label: 'Source', value: (alarm) => alarm.source },
            { label: 'Kind', value: (alarm) => h('span', { class: 'badge risk-high' }, alarm.kind) },
            { label: 'Checkpoint size', value: (alarm) => alarm.position, numeric: true },
            { label: 'What happened', value: (alarm) => alarm.detail },
          ],
        })
      : h(
          'p',
          { class: 'empty' },
          'Since the service started, no witness has refused a checkpoint and no stored cosignature has failed to verify.',
        ),
    state.checkpoint && noteSection(state.checkpoint.note),
  );
}

const fact = (term, value) => h('div', {}, h('dt', {}, term), h('dd', {}, value));

/** The note itself, to save as a file and check without trusting this page. */
function noteSection(note) {
  return [
    h(
      'div',
      { class: 'copy-row' },
      h('h2', { id: 'checkpoint-note' }, 'The checkpoint note'),
      h('button', { type: 'button', class: 'small secondary', onclick: () => copy(note) }, 'Copy the note'),
    ),
    h(
      'p',
      { class: 'hint' },
      'As GET /log/checkpoint serves it, with the cosignatures. Save it as a file and check it with your own copy of the policy: ',
      h('code', {}, 'npm run verify-chain -- checkpoint checkpoint.txt --policy policy.txt'),
    ),
    h('pre', { class: 'note', 'aria-labelledby': 'checkpoint-note' }, note),
  ];
}

function policyPart(policy, checkpoint) {
  const cosigners = policy.witnesses.filter((witness) => witness.cosigned_at).map((witness) => witness.name);
  const by = cosigners.length > 0 ? `cosigned by ${cosigners.join(', ')}` : 'cosigned by none of the witnesses';
  return [
    !checkpoint
      ? notice('info', 'No checkpoint to count the quorum on yet.')
      : policy.quorum_met
        ? notice('success', `The latest checkpoint meets the quorum: ${by}.`)
        : notice(
            'error',
            `The latest checkpoint does not meet the quorum: ${by}. A verifier holding this policy refuses it.`,
          ),
    h(
      'dl',
      { class: 'facts' },
      fact('Quorum', `${policy.quorum}: ${ruleOf(policy, policy.quorum)}`),
      policy.groups
        .filter((group) => group.name !== policy.quorum)
        .map((group) => fact(`Group ${group.name}`, ruleOf(policy, group.name))),
    ),
    table({
      caption: 'The witnesses of LOG_POLICY_FILE',
      rows: policy.witnesses,
      columns: [
        { label: 'Name', value: (witness) => witness.name },
        { label: 'Verifier key', value: (witness) => copyable(witness.vkey, { whole: true }) },
        { label: 'URL', value: (witness) => witness.url ?? 'none: never asked' },
        {
          label: 'Cosigned the latest checkpoint',
          value: (witness) => (witness.cosigned_at ? h('span', {}, 'yes, at ', utc(witness.cosigned_at)) : 'no'),
        },
        { label: 'Last cosigned tree size', value: (witness) => witness.last_cosigned_size, numeric: true },
      ],
    }),
  ];
}

/** A witness or group of the policy in words: `all of A, B`, `any of A, B`, `2 of A, B, C`. */
function ruleOf(policy, name) {
  if (name === 'none') return 'no cosignature needed';
  const group = policy.groups.find((candidate) => candidate.name === name);
  if (!group) return `the witness ${name}`;
  const many =
    group.threshold === group.members.length ? 'all' : group.threshold === 1 ? 'any' : String(group.threshold);
  return `${many} of ${group.members.join(', ')}`;
}

function noPolicy() {
  return notice(
    'info',
    h(
      'p',
      {},
      'No witness policy is configured: LOG_POLICY_FILE is not set, so no witness is asked to cosign, and each checkpoint carries the log’s own signature only.',
    ),
    h(
      'p',
      {},
      'LOG_POLICY_FILE names a c2sp.org tlog-policy file: the independent witnesses (their keys and URLs) the service asks to cosign every checkpoint, and the quorum of them an auditor requires. A witness run by someone else catches a restored backup, a cut log or a rewritten history that the log’s own checks cannot. The README’s section “For auditors: independent witnesses” says how to set one up.',
    ),
  );
}
