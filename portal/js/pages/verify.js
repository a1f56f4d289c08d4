import { withQuery } from '../api.js';
import { anyValue, copyable, field, formValues, h, load, notice, pageHeading, region, show, table } from '../dom.js';

export const verifyPage = {
  path: 'verify',
  title: 'Verify the hash chain',
  roles: ['auditor', 'admin'],
  render(main) {
    const result = region('Verification result');
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: (event) => {
          event.preventDefault();
          verify(result, formValues(form));
        },
      },
      h(
        'div',
        { class: 'fields' },
        field(
          'From position',
          h('input', { name: 'from_position', type: 'number', min: 1, inputmode: 'numeric' }),
          'Empty: from the first entry.',
        ),
        field(
          'To position',
          h('input', { name: 'to_position', type: 'number', min: 1, inputmode: 'numeric' }),
          'Empty: to the head, which also checks that nothing was cut from the end.',
        ),
      ),
      h('button', { type: 'submit' }, 'Run verification'),
    );
    main.append(
      ...pageHeading(
        'Verify the hash chain',
        'Recomputes the SHA-256 hash of every audit log entry from its stored fields and checks each link to the entry before it. For an independent check, export the log and run the offline verifier (see the README).',
      ),
      form,
      result,
    );
  },
};

async function verify(container, range) {
  const path = withQuery('/admin/verify-hash-chain', range);
  const result = await load(container, path, 'the verification (it reads the whole range)');
  if (!result) return;
  const intact = result.break_count === 0;
  show(
    container,
    notice(
      intact ? 'success' : 'error',
      intact
        ? `The chain is intact: all ${result.verified_count} entries verified.`
        : `${result.break_count} break${result.break_count === 1 ? '' : 's'} found: the log was changed after it was written.`,
    ),
    h(
      'dl',
      { class: 'tiles' },
      tile('Entries', result.total_count),
      tile('Verified', result.verified_count),
      tile('Breaks', result.break_count),
      tile('Range', `${result.from_position ?? 1}–${result.to_position ?? result.total_count}`),
    ),
    result.breaks?.length > 0 && breaksTable(result.breaks),
    result.checkpoints && [h('h2', {}, 'Signed checkpoints'), anyValue(result.checkpoints, 'Checkpoints')],
  );
}

const tile = (label, value) => h('div', { class: 'tile' }, h('dt', {}, label), h('dd', {}, String(value ?? '—')));

function breaksTable(breaks) {
  const entry = region('Entry of a break');
  return [
    h('h2', {}, 'Breaks'),
    table({
      caption: 'Each break, in chain order',
      rows: breaks,
      columns: [
        { label: 'Kind', value: (b) => h('span', { class: 'badge risk-high' }, b.kind) },
        { label: 'Position', value: (b) => b.position, numeric: true },
        { label: 'Entry id', value: (b) => copyable(b.entry_id) },
        { label: 'What is wrong', value: (b) => b.detail },
        { label: 'Stored hash', value: (b) => copyable(b.stored_hash ?? b.actual_prev_hash) },
        { label: 'Expected hash', value: (b) => copyable(b.expected_hash ?? b.expected_prev_hash) },
        {
          label: 'Entry',
          value: (b) =>
            h(
              'button',
              { type: 'button', class: 'small secondary', onclick: () => showEntry(entry, b.position) },
              `Show entry ${b.position}`,
            ),
        },
      ],
    }),
    entry,
  ];
}

/** The entry at a break's position as the audit log shows it now. */
async function showEntry(container, position) {
  const path = withQuery('/admin/audit-logs', { cursor: position - 1, limit: 1 });
  const body = await load(container, path, `entry ${position}`);
  if (!body) return;
  const [entry] = body.entries;
  show(
    container,
    h('h2', { tabindex: '-1' }, `Entry at position ${position}, as stored now`),
    entry?.position === position
      ? anyValue(entry, 'Entry')
      : h('p', { class: 'empty' }, 'No entry is stored at this position now.'),
  );
  container.querySelector('h2').focus();
}
