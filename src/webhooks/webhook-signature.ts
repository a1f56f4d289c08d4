import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret as Standard Webhooks writes it: `whsec_` and the base64 of 24 random bytes. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * The `webhook-signature` header (Standard Webhooks 1.0): `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * under each secret, separated by spaces. Two secrets during a rotation's overlap, so that a receiver
 * holding either one verifies.
 */
export function webhookSignature(
  secrets: readonly string[],
  webhookId: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
      return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
