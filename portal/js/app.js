// Sign-in, navigation and the hash router (#/page?param=value). Pages are modules with
// `{path, title, roles, render(main, params)}`; a page is offered to the roles whose keys the API
// lets call it, and the API refuses the rest anyway.
import { call, session } from './api.js';
import { field, h, notice, pageHeading } from './dom.js';
import { auditLogPage } from './pages/audit-log.js';
import { chainPage } from './pages/chain.js';
import { exportPage } from './pages/export.js';
import { fraudOverviewPage } from './pages/fraud-overview.js';
import { jurisdictionsPage } from './pages/jurisdictions.js';
import { keysPage } from './pages/keys.js';
import { merchantsPage } from './pages/merchants.js';
import { overridesPage } from './pages/overrides.js';
import { riskProfilePage } from './pages/risk-profile.js';
import { verifyPage } from './pages/verify.js';
import { voidsPage } from './pages/voids.js';
import { webhooksPage } from './pages/webhooks.js';

const PAGES = [
  merchantsPage,
  keysPage,
  jurisdictionsPage,
  verifyPage,
  auditLogPage,
  chainPage,
  fraudOverviewPage,
  riskProfilePage,
  voidsPage,
  overridesPage,
  exportPage,
  webhooksPage,
];
const HOME = { admin: 'merchants', auditor: 'verify' };

const main = document.getElementById('main');

/** Chain alarms on every page, under the header: a log changed behind the service's back is the first thing to see. */
const chainAlarm = h('div', { id: 'chain-alarm', hidden: true });
document.querySelector('header.top').after(chainAlarm);

async function showChainAlarms() {
  const { body } = await call('GET', '/health', { key: null });
  const alarms = body?.chain?.alarms ?? [];
  chainAlarm.hidden = alarms.length === 0;
  chainAlarm.replaceChildren(
    ...alarms.map((alarm) => notice('error', `Chain alarm (${alarm.source}): ${alarm.detail}`)),
  );
}

/**
 * Which role a key has, from two reads the roles answer differently: only admin keys may read both
 * the key list and the audit log; auditors read the log only. Merchant and partner keys are for
 * the API, not this portal.
 */
async function roleOf(key) {
  const [keys, log] = await Promise.all([
    call('GET', '/admin/api-keys?limit=1', { key }),
    call('GET', '/admin/audit-logs?limit=1', { key }),
  ]);
  if (keys.status === 401 || log.status === 401)
    return { problem: 'The service does not know this key, or it was revoked.' };
  if (keys.ok && log.ok) return { role: 'admin' };
  if (log.ok) return { role: 'auditor' };
  if (keys.status === 403 || log.status === 403)
    return {
      problem: 'This portal is for admin and auditor keys. Merchant and partner keys work with the API directly.',
    };
  return { problem: `The service answered ${keys.status} and ${log.status}; try again.` };
}

function signInPage(message) {
  document.title = 'Sign in · Cash Rounding Compliance portal';
  const key = h('input', { type: 'password', name: 'key', autocomplete: 'off', spellcheck: 'false', required: true });
  const status = h('div', { 'aria-live': 'polite' }, message && notice('error', message));
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (event) => {
        event.preventDefault();
        status.replaceChildren(h('p', { class: 'loading' }, 'Checking the key…'));
        const found = await roleOf(key.value.trim());
        if (found.problem) {
          status.replaceChildren(notice('error', found.problem));
          key.focus();
          return;
        }
        session.start(key.value.trim(), found.role);
        location.hash = `#/${HOME[found.role]}`;
        route();
      },
    },
    field(
      'API key',
      key,
      'An admin or auditor key. It is kept in this browser tab only (session storage) and forgotten when the tab closes or you sign out.',
    ),
    h('button', { type: 'submit' }, 'Sign in'),
    status,
  );
  main.replaceChildren(
    ...pageHeading('Sign in', 'The portal shows and does what your key may do through the API, nothing more.'),
    form,
  );
  main.querySelector('h1').focus();
}

function renderChrome(current) {
  const role = session.role;
  void showChainAlarms().catch(() => undefined);
  document.getElementById('session').hidden = false;
  document.getElementById('session-role').textContent = `Signed in with an ${role} key`;
  document.getElementById('nav').hidden = false;
  document
    .getElementById('nav-links')
    .replaceChildren(
      ...PAGES.filter((page) => page.roles.includes(role)).map((page) =>
        h(
          'li',
          {},
          h('a', { href: `#/${page.path}`, 'aria-current': page === current ? 'page' : undefined }, page.title),
        ),
      ),
    );
}

function signedOut(message) {
  document.getElementById('session').hidden = true;
  document.getElementById('nav').hidden = true;
  signInPage(message);
}

function route() {
  if (!session.key) return signedOut();
  const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((candidate) => candidate.path === path);
  if (!page) {
    location.replace(`#/${HOME[session.role]}`);
    return;
  }
  renderChrome(page);
  document.title = `${page.title} · Cash Rounding Compliance portal`;
  if (!page.roles.includes(session.role)) {
    main.replaceChildren(
      ...pageHeading(page.title),
      notice(
        'error',
        `This page is for ${page.roles.join(' and ')} keys; the API refuses it to your ${session.role} key.`,
      ),
    );
  } else {
    main.replaceChildren();
    page.render(main, new URLSearchParams(query));
  }
  main.querySelector('h1')?.focus();
}

document.getElementById('sign-out').addEventListener('click', () => {
  session.end();
  history.replaceState(null, '', location.pathname);
  signedOut();
});
window.addEventListener('portal:signed-out', (event) => signedOut(event.detail));
window.addEventListener('hashchange', route);
route();
