import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WAIT_LIMIT_MS, waitFor } from './wait';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  type: string;
  webhookId: string;
  /** The receiver's clock when it came. */
  at: Date;
}

/**
 * A real HTTP receiver on 127.0.0.1: records every request, and answers with the statuses queued in
 * `answers` (then 200). Verification is the `standardwebhooks` library's, not ours.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** The statuses of the next answers, in order; 200 once empty. */
  answers: number[] = [];

  private constructor(private readonly server: Server) {}

  /** `now`: the receiver's clock, the test clock when the service runs on one. */
  static async start(now: () => Date = () => new Date(), port = 0): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        receiver.received.push({
          headers: request.headers,
          body,
          type: JSON.parse(body).type,
          webhookId: String(request.headers['webhook-id']),
          at: now(),
        });
        const status = receiver.answers.shift() ?? 200;
        response
          .writeHead(status, status === 302 ? { location: 'http://127.0.0.1:1/elsewhere' } : {})
          .end(status === 200 ? 'ok' : `status ${status}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  waitFor(what: string, done: (received: Received[]) => boolean, limitMs = WAIT_LIMIT_MS): Promise<Received[]> {
    const received = () => JSON.stringify(this.received.map((r) => [r.type, r.webhookId]));
    return waitFor(
      () => `${what}; received ${received()}`,
      () => done(this.received) && this.received,
      limitMs,
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The payload as `standardwebhooks` verifies it with `secret`, as the receiver did when it came (the
 * library refuses a timestamp more than 5 minutes from the receiver's clock); throws when it does not.
 */
export function verified(
  received: Received,
  secret: string,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  const realNow = Date.now;
  Date.now = () => received.at.getTime();
  try {
    return new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as never;
  } finally {
    Date.now = realNow;
  }
}
