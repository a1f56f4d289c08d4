import { call, type Answer } from './auth';
import type { TestApp } from './test-app';

/** A cash sale of $10.03 for the merchant, as a POS would send it; `fields` override any part. */
export const saleBody = (merchantId: string, fields: Record<string, unknown> = {}) => ({
  merchant_id: merchantId,
  subtotal_cents: 1000,
  tax_total_cents: 3,
  payment_method: 'cash',
  ...fields,
});

/** Records a sale with `key` and returns the answer's `transaction`; anything but a 201 fails the test. */
export async function recordSale(app: TestApp, key: string, merchantId: string, fields: Record<string, unknown> = {}) {
  const answer: Answer = await call(app, 'POST', '/transaction', { key, body: saleBody(merchantId, fields) });
  if (answer.status !== 201)
    throw new Error(`record sale: expected 201, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.transaction;
}
