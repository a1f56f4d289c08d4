import { DomainError } from '../platform/errors/domain-error';

export class WebhookEndpointNotFoundError extends DomainError {
  constructor(id: string) {
    super('NOT_FOUND', `Webhook endpoint ${id} not found`, 404);
  }
}

/** docs/design.md, SSRF: checked when the endpoint is made, and again before every delivery. */
export class WebhookUrlRefusedError extends DomainError {
  constructor(reason: string) {
    super('WEBHOOK_URL_REFUSED', `The webhook URL ${reason}`, 400, [
      { field: 'url', messages: [`The webhook URL ${reason}`] },
    ]);
  }
}
