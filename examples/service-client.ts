/**
 * The few lines every client of the service needs, with Node's built-in `fetch` and nothing else:
 * where the service is, how to send a request, and what its errors look like. Copy this file with
 * the example you start from.
 */

export const BASE_URL = (process.env.CRCS_BASE_URL ?? 'http://127.0.0.1:3000/api/v1').replace(/\/+$/, '');

/** Every error the service answers has this body; validation errors add `details`, one per field. */
export interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; messages: string[] }[];
}

export class ApiError extends Error {
  constructor(
    readonly request: string,
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${request} answered ${status} ${body.error}: ${body.message}`);
  }
}

export interface RequestOptions {
  /** Sent as `x-api-key`. */
  key: string;
  /** Sent as JSON. */
  body?: unknown;
  /**
   * Sent as `Idempotency-Key`. A POS makes one per sale and keeps it until it has an answer: if the
   * network drops the answer, the retry with the same key gets the first answer back instead of
   * recording the sale twice (for 24 hours).
   */
  idempotencyKey?: string;
}

/** One request; resolves with the response of a 2xx answer and throws an ApiError for any other. */
export async function request(
  method: 'GET' | 'POST',
  path: string,
  { key, body, idempotencyKey }: RequestOptions,
): Promise<Response> {
  const headers: Record<string, string> = { 'x-api-key': key };
  // The service refuses a body without this header (415), so set it whenever there is one.
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return response;
  const text = await response.text();
  let error: ErrorBody;
  try {
    error = JSON.parse(text) as ErrorBody;
  } catch {
    // Not from the service (a proxy's error page, say): reported as it came.
    error = { error: `HTTP_${response.status}`, message: text.slice(0, 200) };
  }
  throw new ApiError(`${method} ${path}`, response.status, error);
}

/** What to tell the operator when a run fails: the service's error, the network's, or the bug's stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const details = (error.body.details ?? []).map((detail) => `\n  ${detail.field}: ${detail.messages.join('; ')}`);
    return `${error.request} failed with ${error.status}: ${JSON.stringify({ error: error.body.error, message: error.body.message })}${details.join('')}`;
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return `cannot reach the service at ${BASE_URL}: ${(error as { cause?: Error }).cause?.message ?? error.message}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
