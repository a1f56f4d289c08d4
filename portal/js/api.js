// The portal's only way to the service: the public API, with the signed-in key, like any client.

const STORAGE = { key: 'crcs-portal.key', role: 'crcs-portal.role' };

/** The key lives in this tab's session storage only: gone when the tab closes or on sign-out. */
export const session = {
  get key() {
    return sessionStorage.getItem(STORAGE.key);
  },
  get role() {
    return sessionStorage.getItem(STORAGE.role);
  },
  start(key, role) {
    sessionStorage.setItem(STORAGE.key, key);
    sessionStorage.setItem(STORAGE.role, role);
  },
  end() {
    sessionStorage.removeItem(STORAGE.key);
    sessionStorage.removeItem(STORAGE.role);
  },
};

/** Relative to the page, so the portal also works behind a proxy that mounts the service under a path. */
const apiUrl = (path) => new URL(`../api/v1${path}`, document.baseURI);

/** Query parameters without the empty ones, so a blank filter field means "no filter". */
export function withQuery(path, params) {
  const query = new URLSearchParams(
    Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * One request; resolves with `{status, ok, body, headers}` for every HTTP answer (JSON parsed, other
 * bodies as text). A 401 ends the session: the key was revoked or never valid.
 */
export async function call(method, path, { body, key = session.key } = {}) {
  const headers = { accept: 'application/json, text/csv' };
  if (key) headers['x-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(apiUrl(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const answer = {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    body: type.includes('json') && text ? JSON.parse(text) : text,
  };
  if (answer.status === 401 && key === session.key && session.key) {
    session.end();
    window.dispatchEvent(
      new CustomEvent('portal:signed-out', {
        detail: 'The service refused the key (revoked or unknown). Sign in again.',
      }),
    );
  }
  return answer;
}

let servedRoutes;

/** The routes the service serves, from GET /version, as matchers; fetched once per page load. */
async function servedMatchers() {
  servedRoutes ??= call('GET', '/version', { key: null }).then(({ body }) =>
    (body.endpoints ?? []).map(({ method, path }) => {
      const pattern = path
        .replace(/^\/api\/v1/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]+\}/g, '[^/]+');
      return { method, regex: new RegExp(`^${pattern}$`) };
    }),
  );
  return servedRoutes;
}

/** Whether the service serves this route at all: a 404 from a route it lacks means "not built yet", not "no such record". */
export async function isServed(method, path) {
  const bare = path.split('?')[0];
  return (await servedMatchers()).some((route) => route.method === method && route.regex.test(bare));
}

/** What went wrong, in words for the page. */
export async function problemOf(method, path, answer) {
  if (answer.status === 404 && !(await isServed(method, path))) {
    return `This service does not serve ${method} /api/v1${path.split('?')[0]} yet, so there is nothing to show here. The page will work once that endpoint is deployed.`;
  }
  if (answer.status === 403) return 'Your key’s role may not use this endpoint (403 FORBIDDEN).';
  const body = typeof answer.body === 'object' && answer.body ? answer.body : {};
  const details = (body.details ?? []).flatMap((detail) => detail.messages ?? []).join('; ');
  return `${body.message ?? `The service answered ${answer.status}.`}${details ? ` (${details})` : ''} [${answer.status} ${body.error ?? ''}]`.trim();
}
