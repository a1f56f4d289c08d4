import { call, issueKey, onboardMerchant } from '../support/auth';
import { recordSale } from '../support/sales';
import { TEST_ADMIN_KEY } from '../support/test-app';
import { verified, WebhookReceiver } from '../support/webhook-receiver';
import { portalSuite, screenshot, visit } from './browser';

/** The portal's webhooks page, as an admin uses it; the receiver verifies what arrives with `standardwebhooks`. */
describe('the portal’s webhooks page', () => {
  const suite = portalSuite({
    signInWith: () => TEST_ADMIN_KEY,
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '50' },
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(() => receiver?.close());

  it('adds an endpoint showing its secret once, lists its deliveries, and replays one with the same webhook-id', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'webhooks', 'Webhooks');
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('transaction.voided').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const created = page.getByRole('status').filter({ hasText: 'shown only this once' });
    await created.waitFor();
    const secret = (await created.getByRole('button').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const [endpoint] = (await call(suite.app, 'GET', '/webhooks/endpoints', { key: TEST_ADMIN_KEY })).body.endpoints;
    expect(endpoint).toMatchObject({ url: receiver.url, event_types: ['transaction.voided'], status: 'enabled' });

    const { merchant_id: merchantId } = await onboardMerchant(suite.app);
    const { key } = await issueKey(suite.app, { role: 'merchant', merchant_id: merchantId });
    const sale = await recordSale(suite.app, key, merchantId);
    expect(
      (
        await call(suite.app, 'POST', '/transaction/void', {
          key,
          body: { original_transaction_id: sale.id, void_reason: 'pricing_error', voided_by: 'm-1' },
        })
      ).status,
    ).toBe(201);
    const [first] = await receiver.waitFor('the void', (got) => got.length === 1);
    verified(first, secret);

    await visit(suite.tab, 'merchants', 'Merchants');
    await visit(suite.tab, 'webhooks', 'Webhooks');
    await page.getByRole('button', { name: first.webhookId }).waitFor();
    await page.getByRole('cell', { name: 'delivered' }).waitFor();
    await screenshot(page, 'webhooks');

    await page.getByLabel('Endpoint id').fill(endpoint.id);
    await page.getByLabel('From log position').fill(String(JSON.parse(first.body).data.position));
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await page.getByText(`1 deliveries to ${endpoint.id} queued again`).waitFor();
    const [, again] = await receiver.waitFor('the replay', (got) => got.length === 2);
    expect(again.webhookId).toBe(first.webhookId);
    verified(again, secret);
  });

  it('shows why a URL is refused, and adds nothing', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'webhooks', 'Webhooks');
    const before = (await call(suite.app, 'GET', '/webhooks/endpoints', { key: TEST_ADMIN_KEY })).body.endpoints.length;
    await page.getByLabel('URL').fill('ftp://files.example.test/hooks');
    await page.getByLabel('chain.alarm').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('alert').filter({ hasText: 'must be an http or https URL' }).waitFor();
    expect((await call(suite.app, 'GET', '/webhooks/endpoints', { key: TEST_ADMIN_KEY })).body.endpoints).toHaveLength(
      before,
    );
  });
});
