import { createHash, createPublicKey } from 'node:crypto';
import { Witness } from '../../src/audit/witness';
import { Clock } from '../../src/platform/clock';
import { keyId } from '@crcs/tlog';
import type { AuditEntry } from '../../src/audit/list-audit-logs/list-audit-logs.response.dto';
import { checkpointsWritten, exportLog, parseExport, verifyExport } from '../support/audit';
import { call, issueKey, onboardMerchant, type IssuedKey } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { FixedClock } from '../support/fixed-clock';
import { recordSale } from '../support/sales';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/test-app';

const DAY = 86_400_000;

describe('the audit log over HTTP', () => {
  let app: TestApp;
  let merchantKey: IssuedKey;
  let auditor: IssuedKey;
  let all: AuditEntry[];
  const signingKey = newSigningKey();

  const list = (query: string, key = auditor.key) => call(app, 'GET', `/admin/audit-logs${query}`, { key });

  beforeAll(async () => {
    const clock = new FixedClock(new Date('2026-11-20T10:00:00.000Z'));
    app = await startTestApp({
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
      env: {
        CHECKPOINT_SIGNING_KEY: signingKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        CHECKPOINT_INTERVAL: '4',
      },
    });
    // Day one: a merchant and its keys. Day two: three sales. Day three: two more.
    const merchant = await onboardMerchant(app);
    merchantKey = await issueKey(app, { role: 'merchant', merchant_id: merchant.merchant_id });
    auditor = await issueKey(app, { role: 'auditor' });
    clock.advance(DAY);
    for (let i = 0; i < 3; i++) await recordSale(app, merchantKey.key, merchant.merchant_id, { cashier_id: 'emp-7' });
    clock.advance(DAY);
    for (let i = 0; i < 2; i++) await recordSale(app, merchantKey.key, merchant.merchant_id);
    await checkpointsWritten(app);
    all = (await list('?limit=1000')).body.entries;
  });

  afterAll(() => app?.close());

  it('lists every entry in chain order, with its actor, details, position and hashes', async () => {
    const types = all.map((e) => e.event_type);
    expect(types.filter((t) => t === 'TransactionRecorded')).toHaveLength(5);
    expect(types.filter((t) => t === 'ChainCheckpointed').length).toBeGreaterThanOrEqual(2);
    all.forEach((e, i) => {
      expect(e.position).toBe(i + 1);
      if (i > 0) expect(e.prev_hash).toBe(all[i - 1].hash);
    });
    const sale = all.find((e) => e.event_type === 'TransactionRecorded')!;
    expect(sale).toMatchObject({
      stream_id: `transaction-${String(sale.details.transaction_id)}`,
      stream_revision: 1,
      recorded_at: '2026-11-21T10:00:00.000Z',
      actor: { key_id: merchantKey.api_key.id, role: 'merchant', employee: { id: 'emp-7', name: null } },
      merchant_id: merchantKey.api_key.merchant_id,
      correlation_id: expect.any(String),
      details: expect.objectContaining({
        calculation: expect.objectContaining({ cash_total_cents: expect.any(Number) }),
      }),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const checkpoint = all.find((e) => e.event_type === 'ChainCheckpointed')!;
    expect(checkpoint.actor).toEqual({ key_id: null, role: null, employee: null });
  });

  it('filters by event type, short name or stored type', async () => {
    const sales = (await list('?event_type=transaction')).body.entries as AuditEntry[];
    expect(sales.map((e) => e.event_type)).toEqual(Array(5).fill('TransactionRecorded'));
    expect((await list('?event_type=TransactionRecorded')).body.entries).toEqual(sales);
    const keys = (await list('?event_type=api_key')).body.entries as AuditEntry[];
    expect(keys.map((e) => e.details.keyId)).toEqual([merchantKey.api_key.id, auditor.api_key.id]);
    expect((await list('?event_type=tip_payout')).body.entries).toEqual([]);
    expect((await list('?event_type=constructor')).body.entries).toEqual([]);
  });

  it('filters by the key that acted (user_id)', async () => {
    const byMerchant = (await list(`?user_id=${merchantKey.api_key.id}`)).body.entries as AuditEntry[];
    expect(byMerchant).toHaveLength(5);
    expect(new Set(byMerchant.map((e) => e.actor.key_id))).toEqual(new Set([merchantKey.api_key.id]));
    const byAdmin = (await list('?user_id=env:ADMIN_API_KEY')).body.entries as AuditEntry[];
    expect(byAdmin.map((e) => e.event_type)).toEqual(['MerchantOnboarded', 'ApiKeyIssued', 'ApiKeyIssued']);
  });

  it('filters by time: start inclusive, end inclusive, a date alone meaning the whole day (UTC)', async () => {
    const onDay = async (query: string) =>
      ((await list(`?event_type=transaction&${query}`)).body.entries as AuditEntry[]).length;
    expect(await onDay('start_date=2026-11-21&end_date=2026-11-21')).toBe(3);
    expect(await onDay('start_date=2026-11-22')).toBe(2);
    expect(await onDay('end_date=2026-11-21T10:00:00Z')).toBe(3);
    expect(await onDay('end_date=2026-11-21T09:59:59.999Z')).toBe(0);
    expect(await onDay('start_date=2026-11-21T11:00:00%2B01:00&end_date=2026-11-22T10:00:00.000Z')).toBe(5);
  });

  it('pages through the whole log with the cursor, and says where the end is', async () => {
    const paged: AuditEntry[] = [];
    let cursor: number | null = 0;
    for (let pages = 0; cursor !== null; pages++) {
      expect(pages).toBeLessThan(all.length);
      const { status, body } = await list(`?limit=3&cursor=${cursor}`);
      expect(status).toBe(200);
      expect(body.limit).toBe(3);
      paged.push(...body.entries);
      cursor = body.next_cursor;
    }
    expect(paged).toEqual(all);
    // A cursor also pages a filtered list.
    const first = await list('?event_type=transaction&limit=2');
    expect(first.body.next_cursor).toBe(first.body.entries[1].position);
    const rest = await list(`?event_type=transaction&limit=5&cursor=${first.body.next_cursor}`);
    expect(rest.body).toMatchObject({ next_cursor: null });
    expect(rest.body.entries).toHaveLength(3);
  });

  it('lists 100 entries unless told otherwise', async () => {
    expect((await list('')).body.limit).toBe(100);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=-1', 'cursor'],
    ['cursor=1.5', 'cursor'],
    ['start_date=yesterday', 'start_date'],
    ['start_date=2026-02-30', 'start_date'],
    ['start_date=2026-11-21T10:00:00', 'start_date'],
    ['end_date=2026-11-21T10:00:00%2B0100', 'end_date'],
    ['start_date=2026-11-22&end_date=2026-11-21', 'end_date'],
    ['event_type=%27%3B%20drop', 'event_type'],
    ['user_id=a%20b', 'user_id'],
    ['page=2', 'page'],
  ])('refuses %s with a 400 naming the field', async (query, field) => {
    const { status, body } = await list(`?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] });
  });

  it('is for auditors and admins only', async () => {
    expect((await list('', TEST_ADMIN_KEY)).status).toBe(200);
    expect((await list('', merchantKey.key)).status).toBe(403);
    expect((await call(app, 'GET', '/admin/audit-logs/export', { key: merchantKey.key })).status).toBe(403);
    expect((await call(app, 'GET', '/admin/verify-hash-chain', { key: merchantKey.key })).status).toBe(403);
    expect((await call(app, 'GET', '/admin/audit-logs')).status).toBe(401);
  });

  describe('GET /admin/audit-logs/export', () => {
    it('streams the raw log as NDJSON, every field the hash covers, up to the head', async () => {
      const answer = await call(app, 'GET', '/admin/audit-logs/export', { key: auditor.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="audit-log-1-${all.length}.ndjson"`);
      const entries = parseExport(answer.body);
      expect(entries.map((e) => [e.position, e.entryId, e.hash])).toEqual(
        all.map((e) => [e.position, e.entry_id, e.hash]),
      );
      expect(verifyExport(answer.body)).toMatchObject({ total_count: all.length, break_count: 0 });
    });

    it('documents an example that is the start of a log the offline verifier accepts', async () => {
      const { content } = (await call(app, 'GET', '/openapi.json')).body.paths['/admin/audit-logs/export'].get
        .responses['200'];
      expect(Object.keys(content)).toEqual(['application/x-ndjson']);
      expect(verifyExport(content['application/x-ndjson'].schema.example)).toMatchObject({
        total_count: 1,
        break_count: 0,
      });
    });
  });

  describe('GET /admin/verify-hash-chain', () => {
    const verify = (query = '') => call(app, 'GET', `/admin/verify-hash-chain${query}`, { key: auditor.key });

    it('verifies the whole chain, checkpoint signatures included, and agrees with the offline verifier', async () => {
      const { status, body } = await verify();
      expect(status).toBe(200);
      expect(body).toMatchObject({
        total_count: all.length,
        verified_count: all.length,
        break_count: 0,
        breaks: [],
        from_position: 1,
        to_position: all.length,
        checkpoints: { signatures_checked: true },
      });
      const pem = createPublicKey(signingKey).export({ format: 'pem', type: 'spki' }) as string;
      const { from_position: fromPosition, to_position: toPosition, ...result } = body;
      expect(verifyExport(await exportLog(app), [pem], await app.app.get(Witness).heads())).toEqual(result);
    });

    it('verifies a range, from the prev_hash of its first entry; past the head, up to the head', async () => {
      expect((await verify('?from_position=3&to_position=7')).body).toMatchObject({
        total_count: 5,
        break_count: 0,
        from_position: 3,
        to_position: 7,
      });
      expect((await verify('?from_position=5&to_position=99999')).body).toMatchObject({
        total_count: all.length - 4,
        break_count: 0,
        to_position: all.length,
      });
    });

    it.each([
      ['from_position=0', 'from_position'],
      ['from_position=x', 'from_position'],
      ['to_position=0', 'to_position'],
      ['from_position=5&to_position=4', 'to_position'],
      ['from_position=99999', 'from_position'],
    ])('refuses %s with a 400 naming the field', async (query, field) => {
      const { status, body } = await verify(`?${query}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] });
    });
  });

  describe('GET /admin/checkpoint-key', () => {
    it('gives the public key that verifies the checkpoints', async () => {
      const { status, body } = await call(app, 'GET', '/admin/checkpoint-key', { key: auditor.key });
      expect(status).toBe(200);
      const publicKey = createPublicKey(signingKey);
      expect(body).toEqual({
        algorithm: 'Ed25519',
        key_id: keyId(publicKey),
        public_key_pem: publicKey.export({ format: 'pem', type: 'spki' }),
        checkpoint_interval: 4,
        origin: expect.stringMatching(/^[a-z0-9.-]+\/crcs\/[0-9a-f]{12}$/),
        vkey: expect.any(String),
      });
      // c2sp.org/signed-note, from its text: name, key ID = SHA-256(name || 0x0A || 0x01 || key)[:4], base64(0x01 || key).
      const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
      const id = createHash('sha256')
        .update(`${body.origin}\n`)
        .update(Buffer.of(1))
        .update(raw)
        .digest()
        .subarray(0, 4)
        .toString('hex');
      expect(body.vkey).toBe(`${body.origin}+${id}+${Buffer.concat([Buffer.of(1), raw]).toString('base64')}`);
    });
  });
});

describe('without CHECKPOINT_SIGNING_KEY', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ env: { CHECKPOINT_INTERVAL: '2' } });
  });

  afterAll(() => app?.close());

  it('writes no checkpoint, has no key to give, and says signatures went unchecked', async () => {
    for (let i = 0; i < 3; i++) await onboardMerchant(app);
    await checkpointsWritten(app);
    const entries = parseExport(await exportLog(app));
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.filter((e) => e.type === 'ChainCheckpointed')).toEqual([]);
    expect(await call(app, 'GET', '/admin/checkpoint-key', { key: TEST_ADMIN_KEY })).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', message: 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)' },
    });
    for (const path of ['/log/checkpoint', '/log/vkey']) {
      expect(await call(app, 'GET', path, { key: TEST_ADMIN_KEY })).toMatchObject({
        status: 404,
        body: { error: 'NOT_FOUND', message: 'Checkpoint signing is not configured (CHECKPOINT_SIGNING_KEY)' },
      });
    }
    const { body } = await call(app, 'GET', '/admin/verify-hash-chain', { key: TEST_ADMIN_KEY });
    expect(body).toMatchObject({ break_count: 0, checkpoints: { count: 0, signatures_checked: false } });
  });
});
