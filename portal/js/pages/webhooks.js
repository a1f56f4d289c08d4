import { call, problemOf, withQuery } from '../api.js';
import {
  confirmDialog,
  copyable,
  field,
  formValues,
  h,
  load,
  notice,
  pageHeading,
  region,
  select,
  show,
  table,
  utc,
} from '../dom.js';

const DELIVERY_PAGE = 50;

/** The key's webhook endpoints (an admin's: every one), their recent deliveries, and a replay. */
export const webhooksPage = {
  path: 'webhooks',
  title: 'Webhooks',
  roles: ['admin', 'auditor'],
  render(main) {
    const outcome = h('div', { 'aria-live': 'polite' });
    const endpoints = region('Webhook endpoints');
    const deliveries = region('Recent deliveries');
    const reload = async (message) => {
      show(outcome, message);
      await loadEndpoints(endpoints, reload);
      await loadDeliveries(deliveries);
    };
    const types = h('div', { class: 'fields choices', role: 'group', 'aria-label': 'Events to send' });
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: async (event) => {
          event.preventDefault();
          const { url, description } = formValues(form);
          const eventTypes = [...form.querySelectorAll('input[name="event_types"]:checked')].map((box) => box.value);
          const body = { url, event_types: eventTypes, ...(description ? { description } : {}) };
          const answer = await call('POST', '/webhooks/endpoints', { body });
          if (!answer.ok) return show(outcome, notice('error', await problemOf('POST', '/webhooks/endpoints', answer)));
          form.reset();
          await reload(oneTimeSecret(`Endpoint ${answer.body.id} created.`, answer.body.secret));
        },
      },
      h('h2', {}, 'Add an endpoint'),
      h(
        'div',
        { class: 'fields' },
        field(
          'URL',
          h('input', { name: 'url', type: 'url', required: true, maxlength: 2000 }),
          'http or https, to a global unicast address of another host: the service refuses loopback, private, link-local, metadata and other special-purpose addresses and its own, unless it runs with WEBHOOK_ALLOW_PRIVATE=true (for development).',
        ),
        field('Description', h('input', { name: 'description', maxlength: 200 }), 'Optional, for people.'),
      ),
      types,
      h('button', { type: 'submit' }, 'Add endpoint'),
    );
    // The event types are the OpenAPI document's `webhooks`: one list, the service's own.
    void call('GET', '/openapi.json').then((answer) => {
      const names = answer.ok ? Object.keys(answer.body.webhooks ?? {}) : [];
      types.append(
        ...names.map((name) => field(name, h('input', { type: 'checkbox', name: 'event_types', value: name }))),
      );
    });

    const replay = h(
      'form',
      {
        class: 'card',
        onsubmit: async (event) => {
          event.preventDefault();
          const { endpoint_id: id, from_position: position, since } = formValues(replay);
          const path = `/webhooks/endpoints/${encodeURIComponent(id)}/replay`;
          const body = position
            ? { from_position: Number(position) }
            : { since: since ? new Date(since).toISOString() : '' };
          const answer = await call('POST', path, { body });
          if (!answer.ok) return show(outcome, notice('error', await problemOf('POST', path, answer)));
          await reload(
            notice('success', `${answer.body.replayed} deliveries to ${id} queued again, each with its webhook-id.`),
          );
        },
      },
      h('h2', {}, 'Replay'),
      h(
        'div',
        { class: 'fields' },
        field('Endpoint id', h('input', { name: 'endpoint_id', required: true, spellcheck: 'false' })),
        field(
          'From log position',
          h('input', { name: 'from_position', type: 'number', min: 1 }),
          'Or leave empty and give a time.',
        ),
        field('Since (UTC)', h('input', { name: 'since', type: 'datetime-local' })),
      ),
      h('button', { type: 'submit' }, 'Replay'),
    );

    main.append(
      ...pageHeading(
        'Webhooks',
        'Endpoints told of events as they enter the audit log, signed as Standard Webhooks prescribes. A secret is shown once, when the endpoint is made or its secret rotated.',
      ),
      form,
      outcome,
      h('h2', {}, 'Endpoints'),
      endpoints,
      replay,
      h('h2', {}, 'Recent deliveries'),
      deliveries,
    );
    void reload();
  },
};

function oneTimeSecret(what, secret) {
  return notice(
    'success',
    h('p', {}, h('strong', {}, what), ' Copy the signing secret now: it is shown only this once.'),
    h('p', {}, copyable(secret)),
  );
}

async function loadEndpoints(container, reload) {
  const body = await load(container, '/webhooks/endpoints', 'endpoints');
  if (!body) return;
  const act = async (method, path, done) => {
    const answer = await call(method, path);
    if (!answer.ok) return reload(notice('error', await problemOf(method, path, answer)));
    await reload(done(answer.body));
  };
  const remove = async (endpoint) => {
    const confirmed = await confirmDialog({
      title: 'Delete this endpoint?',
      text: `${endpoint.url} will be sent nothing more, and its deliveries are deleted with it.`,
      confirmLabel: 'Delete endpoint',
    });
    if (confirmed)
      await act('DELETE', `/webhooks/endpoints/${encodeURIComponent(endpoint.id)}`, () =>
        notice('success', `Deleted ${endpoint.id}.`),
      );
  };
  const rotate = (endpoint) =>
    act('POST', `/webhooks/endpoints/${encodeURIComponent(endpoint.id)}/rotate-secret`, (rotated) =>
      oneTimeSecret(
        `New secret for ${endpoint.id}; the old one signs beside it until ${rotated.previous_secret_expires_at}.`,
        rotated.secret,
      ),
    );
  show(
    container,
    table({
      caption: 'Webhook endpoints, oldest first',
      rows: body.endpoints,
      empty: 'No endpoint yet.',
      columns: [
        { label: 'Endpoint id', value: (e) => copyable(e.id) },
        { label: 'URL', value: (e) => e.url },
        { label: 'Events', value: (e) => e.event_types.join(', ') },
        { label: 'Owner', value: (e) => (e.merchant_id ? `${e.owner_role} ${e.merchant_id}` : e.owner_role) },
        {
          label: 'Status',
          value: (e) =>
            h(
              'span',
              { class: `badge ${e.status === 'enabled' ? 'active' : 'revoked'}`, title: e.disabled_reason ?? '' },
              e.status,
            ),
        },
        { label: 'Created', value: (e) => utc(e.created_at) },
        {
          label: 'Actions',
          value: (e) =>
            h(
              'span',
              {},
              h(
                'button',
                {
                  type: 'button',
                  class: 'secondary small',
                  onclick: () => rotate(e),
                  'aria-label': `Rotate the secret of ${e.id}`,
                },
                'Rotate secret',
              ),
              ' ',
              h(
                'button',
                { type: 'button', class: 'danger small', onclick: () => remove(e), 'aria-label': `Delete ${e.id}` },
                'Delete',
              ),
            ),
        },
      ],
    }),
  );
}

async function loadDeliveries(container) {
  const filter = h(
    'form',
    {
      class: 'card filters',
      role: 'search',
      onsubmit: (event) => {
        event.preventDefault();
        void loadDeliveryList(list, formValues(filter));
      },
    },
    h('div', { class: 'fields' }, field('Status', select('status', [['', 'Any'], 'pending', 'delivered', 'failed']))),
    h('button', { type: 'submit' }, 'Show'),
  );
  const list = region('Delivery list');
  show(container, filter, list);
  await loadDeliveryList(list, {});
}

async function loadDeliveryList(container, { status }) {
  const body = await load(container, withQuery('/webhooks/deliveries', { status, limit: DELIVERY_PAGE }), 'deliveries');
  if (!body) return;
  show(
    container,
    table({
      caption: `The last ${DELIVERY_PAGE} deliveries, newest first`,
      rows: body.deliveries,
      empty: 'No delivery yet.',
      columns: [
        { label: 'Event', value: (d) => d.event_type },
        { label: 'Position', value: (d) => d.position, numeric: true },
        { label: 'webhook-id', value: (d) => copyable(d.webhook_id) },
        { label: 'Endpoint', value: (d) => d.endpoint_id },
        {
          label: 'Status',
          value: (d) =>
            h(
              'span',
              { class: `badge ${d.status === 'delivered' ? 'active' : d.status === 'failed' ? 'revoked' : ''}` },
              d.status,
            ),
        },
        { label: 'Attempts', value: (d) => d.attempts, numeric: true },
        { label: 'Last answer', value: (d) => d.last_status_code ?? d.last_error ?? '—' },
        { label: 'Last try', value: (d) => utc(d.last_attempt_at) },
        { label: 'Next try', value: (d) => (d.status === 'pending' ? utc(d.next_attempt_at) : '—') },
      ],
    }),
  );
}
