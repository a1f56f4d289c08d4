import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { issueKey, onboardMerchant } from '../support/auth';
import { startTestApp, type TestApp } from '../support/test-app';

const ROOT = join(__dirname, '../..');
const run = promisify(execFile);

/** What a POS engineer writes against the generated SDK: its names and types, nothing hand-made. */
const POS_SCRIPT = `
import { createClient } from './client/client';
import { getReceipt, getTransaction, recordTransaction, type ErrorBody } from './client';

// The error codes are a union a client can switch over exhaustively.
const branchable: ErrorBody['error'] = 'IDEMPOTENCY_KEY_REUSED';
// @ts-expect-error: no code of the service's
const unknown: ErrorBody['error'] = 'NO_SUCH_CODE';

async function main(baseUrl: string, key: string, merchantId: string): Promise<void> {
  const client = createClient({ baseUrl, headers: { 'x-api-key': key } });
  const { data: recorded, response } = await recordTransaction({
    client,
    throwOnError: true,
    headers: { 'Idempotency-Key': 'generated-client-1' },
    body: { merchant_id: merchantId, subtotal_cents: 1000, tax_total_cents: 102, payment_method: 'cash', zip_code: '98101' },
  });
  const id: string = recorded.transaction.id;
  const { data: fetched } = await getTransaction({ client, throwOnError: true, path: { id } });
  const { data: receipt } = await getReceipt({ client, throwOnError: true, path: { id } });
  console.log(JSON.stringify({ status: response.status, recorded: recorded.transaction, fetched: fetched.transaction, receipt }));
}

const [baseUrl = '', key = '', merchantId = ''] = process.argv.slice(2);
main(baseUrl, key, merchantId).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'commonjs',
    moduleResolution: 'node10',
    typeRoots: [join(ROOT, 'node_modules/@types')],
    types: ['node'],
    outDir: 'out',
    skipLibCheck: false,
  },
  include: ['client', 'pos.ts'],
};

/**
 * A client generated from the served document with `@hey-api/openapi-ts`, type-checked in strict
 * mode together with a small POS script that uses it, then run against the service over HTTP.
 */
describe('a TypeScript client generated from the OpenAPI document', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    app = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'crcs-client-'));
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks in strict mode and records a sale, fetches it and gets its receipt', async () => {
    const document = await (await fetch(`${app.baseUrl}/openapi.json`)).text();
    writeFileSync(join(dir, 'openapi.json'), document);
    await run(join(ROOT, 'node_modules/.bin/openapi-ts'), ['-i', 'openapi.json', '-o', 'client'], { cwd: dir });
    writeFileSync(join(dir, 'pos.ts'), POS_SCRIPT);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    // Operation and schema names that read well: none the generator had to number apart (`RecordTransactionResponse2`).
    const types = readFileSync(join(dir, 'client', 'types.gen.ts'), 'utf8');
    const names = [...types.matchAll(/^export type (\w+)/gm)].map(([, name]) => name);
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((name) => /\d$/.test(name))).toEqual([]);
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]).catch(
      (error: { stdout: string }) => {
        throw new Error(`the generated client does not type-check:\n${error.stdout}`);
      },
    );

    const merchant = await onboardMerchant(app);
    const { key } = await issueKey(app, { role: 'merchant', merchant_id: merchant.merchant_id });
    const { stdout } = await run(process.execPath, [join(dir, 'out/pos.js'), app.baseUrl, key, merchant.merchant_id]);
    const { status, recorded, fetched, receipt } = JSON.parse(stdout);
    expect(status).toBe(201);
    expect(recorded.calculation).toMatchObject({
      ledger_total_cents: 1102,
      cash_total_cents: 1100,
      jurisdiction: 'US-WA',
    });
    expect(fetched.id).toBe(recorded.id);
    expect(fetched.calculation.cash_total_cents).toBe(1100);
    expect(receipt.receipt.text).toContain('11.00');
  });
});
