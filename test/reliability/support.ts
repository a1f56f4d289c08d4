import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECTORS } from '../../src/projectors';
import { rebuildProjections } from '../../src/platform/projections/runner';
import { SystemClock } from '../../src/platform/clock';
import { ChainVerifier, type ChainVerification } from '@crcs/tlog';
import { openDatabase, type EventStoreOptions } from '../../src/platform/event-store/event-store.module';
import { SqlEventStore } from '../../src/platform/event-store/sql-event-store';
import { dumpReadModels } from '../support/read-models';
import type { ServiceProcess } from '../support/service-process';

export const ADMIN_KEY = `reliability-admin-${randomBytes(8).toString('hex')}`;

/** What every reliability run sends to the service it starts. */
export const serviceEnv = (env: Record<string, string>) => ({ ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', ...env });

export async function post(
  baseUrl: string,
  key: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A merchant and its key, through the admin API. */
export async function onboard(service: ServiceProcess): Promise<{ merchantId: string; key: string }> {
  const merchantId = `m-rel-${randomBytes(4).toString('hex')}`;
  const merchant = await post(service.baseUrl, ADMIN_KEY, '/admin/merchants', {
    merchant_id: merchantId,
    name: 'Reliability',
    environment: 'sandbox',
  });
  if (merchant.status !== 201) throw new Error(`onboard: ${merchant.status} ${JSON.stringify(merchant.body)}`);
  const key = await post(service.baseUrl, ADMIN_KEY, '/admin/api-keys', { role: 'merchant', merchant_id: merchantId });
  if (key.status !== 201) throw new Error(`issue key: ${key.status} ${JSON.stringify(key.body)}`);
  return { merchantId, key: key.body.key };
}

export interface LoadResult {
  /** Ids of the sales answered 201: each must be in the log. */
  created: string[];
  /** Status (or 0 for a failed connection) → count. */
  statuses: Map<number, number>;
  sent: number;
}

/**
 * `workers` loops posting sales to each service in turn until `stop()` resolves or, per request,
 * until the service stops answering. A request cut by a crash counts as status 0: the client never
 * learnt whether it was recorded, so it may or may not be in the log.
 */
export async function loadUntil(
  services: readonly ServiceProcess[],
  merchant: { merchantId: string; key: string },
  workers: number,
  stop: Promise<unknown>,
): Promise<LoadResult> {
  const result: LoadResult = { created: [], statuses: new Map(), sent: 0 };
  let stopped = false;
  void stop.then(() => (stopped = true));
  const count = (status: number) => result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; !stopped; i++) {
        const service = services[(worker + i) % services.length];
        result.sent += 1;
        try {
          const answer = await post(service.baseUrl, merchant.key, '/transaction', {
            merchant_id: merchant.merchantId,
            subtotal_cents: 100 + ((worker * 7919 + i * 104729) % 20000),
            tax_total_cents: (i * 13) % 200,
            payment_method: i % 3 === 0 ? 'card' : 'cash',
            zip_code: ['35203', '85701', '10001', '60601'][i % 4],
            cashier_id: `cashier-${worker}`,
          });
          count(answer.status);
          if (answer.status === 201) result.created.push(answer.body.transaction.id);
        } catch {
          count(0);
          if (!service.running) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }),
  );
  return result;
}

export interface LogInspection {
  verification: ChainVerification;
  transactionIds: Set<string>;
  /** Read models after the process's own projections caught up, and after a full rebuild. */
  live: Record<string, unknown[]>;
  rebuilt: Record<string, unknown[]>;
}

/**
 * Opens the database the service used (once the service is stopped, for the embedded default), verifies the
 * whole chain, collects the transaction ids in the log, and compares the live read models with a
 * rebuild from the log.
 */
export async function inspectLog(options: Omit<EventStoreOptions, 'projectors'>): Promise<LogInspection> {
  const db = await openDatabase({ ...options, projectors: PROJECTORS });
  try {
    const verifier = new ChainVerifier();
    const transactionIds = new Set<string>();
    const events = new SqlEventStore(db, new SystemClock());
    for (let from = 1; ;) {
      const batch = await events.readAll(from, 1000);
      if (batch.length === 0) break;
      for (const event of batch) {
        verifier.push(event);
        if (event.type === 'TransactionRecorded') transactionIds.add(String(event.data.transaction_id));
      }
      from = batch[batch.length - 1].position + 1;
    }
    // openDatabase caught the async projectors up, as the service's next start would.
    const live = await dumpReadModels(db);
    await rebuildProjections(db, PROJECTORS);
    return { verification: verifier.result(), transactionIds, live, rebuilt: await dumpReadModels(db) };
  } finally {
    await db.close();
  }
}

/** The pid of the embedded server running on `dataDir`, from its postmaster.pid; undefined when there is none. */
export function embeddedServerPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One cash sale, answered 201 with its id. */
export async function recordSale(
  service: ServiceProcess,
  merchant: { merchantId: string; key: string },
): Promise<string> {
  const answer = await post(service.baseUrl, merchant.key, '/transaction', {
    merchant_id: merchant.merchantId,
    subtotal_cents: 1000,
    tax_total_cents: 3,
    payment_method: 'cash',
    zip_code: '85004',
    cashier_id: 'c-1',
  });
  if (answer.status !== 201) throw new Error(`sale: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.transaction.id;
}
