import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../platform/project-root';

/** Where the portal is served; outside /api/v1, so it is no API endpoint and no key guards its files. */
export const PORTAL_PATH = '/portal';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Only the portal's own files may run or load: no inline script or style, no other origin, no
 * framing. The pages hold an admin key in session storage, so an injected script must have
 * nowhere to come from and nowhere to send it.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  // Revalidated on every load, so a new release of the service never runs with an old page.
  'cache-control': 'no-cache',
};

interface PortalFile {
  type: string;
  body: Buffer;
}

/**
 * The admin and auditor portal: the files of the project's `portal/` folder (found from the project
 * root, so the same from src/ under tests and from dist/src/ under `npm start`), read once at start
 * and served from memory. A request can only name a file that was listed then, so no path a client
 * sends ever reaches the file system. The pages call /api/v1 with the signed-in key like any
 * client; the files themselves hold no data.
 */
export function servePortal(fastify: FastifyInstance): void {
  const files = readPortal(join(projectRoot(), 'portal'));
  // `/portal` → `/portal/`, so that the pages' relative URLs resolve under it.
  fastify.get(PORTAL_PATH, (_request, reply) => reply.redirect(`${PORTAL_PATH}/`, 301));
  fastify.get(`${PORTAL_PATH}/*`, (request, reply) => {
    const file = files.get((request.params as { '*': string })['*'] || 'index.html');
    if (!file) return reply.callNotFound();
    return reply.headers({ ...SECURITY_HEADERS, 'content-type': file.type }).send(file.body);
  });
}

/** Every file of a known type below `root`, by its path relative to it with `/` separators. */
function readPortal(root: string): Map<string, PortalFile> {
  const files = new Map<string, PortalFile>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const type = CONTENT_TYPES[extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(root, path).split(sep).join('/'), { type, body: readFileSync(path) });
  }
  return files;
}
