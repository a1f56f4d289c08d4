import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeyDirectory } from '../../src/auth/api-key-directory';
import { ISSUED_KEY_FORMAT, hashApiKey } from '../../src/auth/api-key-secret';
import { Authenticator } from '../../src/platform/identity/authenticator';
import type { Environment } from '../../src/platform/identity/principal';

/** Who sent a recorded request, as the replay must recreate it: the key's role, or why there was none that counts. */
export type Caller = 'none' | 'unknown' | 'revoked' | 'env-admin' | 'admin' | 'merchant' | 'partner' | 'auditor';

/** One 4xx answer as the service gave it, with what the replay needs to send the request again. */
export interface RecordedRequest {
  /** The spec file that sent it. */
  testPath: string;
  method: string;
  url: string;
  caller: Caller;
  /** A merchant key's merchant: routes check what a request names against it. */
  merchant?: { id: string; environment: Environment };
  /** Kept for an unknown key only: its value is what was tested. */
  apiKey?: string;
  /** In the order sent, lower-cased, without those any client adds (host, user-agent…) and the key. */
  headers: Array<[string, string]>;
  bodyBase64: string;
  status: number;
  response: string;
}

/** Headers every fetch() adds by itself, or that never change an answer's body. */
const AMBIENT_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'user-agent',
  'accept',
  'accept-language',
  'accept-encoding',
  'sec-fetch-mode',
  'x-request-id',
  'x-api-key',
]);

/**
 * Appends every 4xx answer of `app` to `file`, one JSON line each (test/invalid-requests/ builds its
 * fixture from them). Wraps the HTTP server below Fastify, so the router's own refusals and bodies that no
 * route reads are caught too. Only test-app.ts calls it, and only when CRCS_RECORD_REQUESTS names the file.
 */
export function recordRequests(app: NestFastifyApplication, file: string): void {
  const authenticator = app.get(Authenticator);
  const directory = app.get(ApiKeyDirectory);
  const testPath = (globalThis as { expect?: jest.Expect }).expect?.getState().testPath ?? '';
  const callerOf = async (
    key: string | string[] | undefined,
  ): Promise<Pick<RecordedRequest, 'caller' | 'merchant'>> => {
    if (key === undefined) return { caller: 'none' };
    const principal = await authenticator.authenticate(key);
    if (principal?.merchantId)
      return { caller: 'merchant', merchant: { id: principal.merchantId, environment: principal.environment } };
    if (principal) return { caller: principal.keyId === 'env:ADMIN_API_KEY' ? 'env-admin' : principal.role };
    const stored =
      typeof key === 'string' && ISSUED_KEY_FORMAT.test(key) ? await directory.findByHash(hashApiKey(key)) : undefined;
    return { caller: stored ? 'revoked' : 'unknown' };
  };
  app.getHttpServer().prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    // Asked as the request comes in, before a test revokes the key; a failure to ask (the database gone) marks it unknown.
    const caller = callerOf(request.headers['x-api-key']).catch(() => ({ caller: 'unknown' as const }));
    const received = tap(request, 'push');
    const sent = [tap(response, 'write'), tap(response, 'end')];
    void Promise.all([finished(request).catch(() => undefined), finished(response).catch(() => undefined)]).then(
      async () => {
        if (response.statusCode < 400 || response.statusCode >= 500) return;
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < request.rawHeaders.length; i += 2) {
          const name = request.rawHeaders[i].toLowerCase();
          if (!AMBIENT_HEADERS.has(name)) headers.push([name, request.rawHeaders[i + 1]]);
        }
        const who = await caller;
        const record: RecordedRequest = {
          testPath,
          method: request.method!,
          url: request.url!,
          ...who,
          ...(who.caller === 'unknown' &&
            typeof request.headers['x-api-key'] === 'string' && { apiKey: request.headers['x-api-key'] }),
          headers,
          bodyBase64: Buffer.concat(received).toString('base64'),
          status: response.statusCode,
          response: Buffer.concat(sent.flat()).toString('utf8'),
        };
        appendFileSync(file, `${JSON.stringify(record)}\n`);
      },
    );
  });
}

/** The chunks passed to `target[method]`, which keeps working as before. */
function tap<T extends object>(target: T, method: 'push' | 'write' | 'end'): Buffer[] {
  const chunks: Buffer[] = [];
  const original = (target as Record<string, (...args: unknown[]) => unknown>)[method];
  (target as Record<string, unknown>)[method] = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk as string));
    return original.call(this, chunk, ...rest);
  };
  return chunks;
}
