import autocannon from 'autocannon';
import type { BenchSale } from './sales';

export const benchMerchantIds = (count: number) => Array.from({ length: count }, (_, i) => `bench-merchant-${i}`);

/** One merchant key per bench merchant, issued through the admin API as an operator would. */
export async function onboardMerchants(
  baseUrl: string,
  adminKey: string,
  merchantIds: readonly string[],
): Promise<string[]> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { key: string };
  };
  const keys: string[] = [];
  for (const merchantId of merchantIds) {
    await post('/admin/merchants', { merchant_id: merchantId, name: `Bench ${merchantId}`, environment: 'sandbox' });
    keys.push((await post('/admin/api-keys', { role: 'merchant', merchant_id: merchantId })).key);
  }
  return keys;
}

/** One request of a load: its method and path, with a body and headers when it needs them. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * Sends the requests `next` makes, one per call, at `connections`, for `length` seconds or until
 * that promise settles.
 */
export function load(port: number, connections: number, length: number | Promise<unknown>, next: () => LoadRequest) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        // Until stopped: longer than any run.
        duration: typeof length === 'number' ? length : 24 * 3600,
        requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
      },
      (error: Error | null, result) => (error ? reject(error) : resolve(result)),
    );
    if (typeof length !== 'number')
      void length.then(
        () => instance.stop(),
        () => instance.stop(),
      );
  });
}

/** Sends the sales round-robin to `path`, each with its merchant's key. */
export function loadSales(
  port: number,
  path: string,
  keys: string[],
  sales: BenchSale[],
  connections: number,
  length: number | Promise<unknown>,
) {
  let next = 0;
  return load(port, connections, length, () => {
    const sale = sales[next++ % sales.length];
    return {
      method: 'POST',
      path,
      body: sale.body,
      headers: { 'content-type': 'application/json', 'x-api-key': keys[sale.merchant % keys.length] },
    };
  });
}
