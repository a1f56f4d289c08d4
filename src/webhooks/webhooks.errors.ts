import { DomainError } from '../platform/errors/domain-error';

export class WebhookEndpointNotFoundError extends DomainError {
  constructor(id: string) {
    super('NOT_FOUND', `Webhook endpoint ${id} not found`, 404);
  }
}

/** For the documentation of the routes that name an endpoint. */
export const WEBHOOK_ENDPOINT_NOT_FOUND_DOC = {
  404: { NOT_FOUND: 'No endpoint has this id, or it belongs to another owner' },
};

/** SSRF: checked when the endpoint is made, and again before every delivery. */
export class WebhookUrlRefusedError extends DomainError {
  constructor(reason: string) {
    super('WEBHOOK_URL_REFUSED', `The webhook URL ${reason}`, 400, [
      { field: 'url', messages: [`The webhook URL ${reason}`] },
    ]);
  }
}

/** WEBHOOK_MAX_ENDPOINTS: each endpoint costs a delivery per event, so one owner cannot make hundreds. */
export class WebhookEndpointLimitError extends DomainError {
  constructor(limit: number) {
    super(
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
      `This owner has ${limit} webhook endpoints, the most allowed; delete one before adding another`,
      409,
    );
  }
}
