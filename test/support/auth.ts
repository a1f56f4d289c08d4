import { randomBytes } from 'node:crypto';
import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { ApiKeyResponse } from '../../src/auth/api-key.response.dto';
import { CurrentPrincipal } from '../../src/platform/identity/current-principal.decorator';
import { type Environment, type Principal, ROLES, type Role } from '../../src/platform/identity/principal';
import { Roles } from '../../src/platform/identity/roles.decorator';
import type { MerchantResponse } from '../../src/merchants/merchant.response.dto';
import { expectConformance } from './openapi';
import { TEST_ADMIN_KEY, type TestApp } from './test-app';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  /** Sent as x-api-key; omit for a request without a key. */
  key?: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request over real HTTP; `path` is relative to /api/v1. */
export async function call(app: TestApp, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a CSV export): the text as it came.
  }
  const answer = { status: response.status, headers: response.headers, body };
  // So the whole e2e suite checks that the document describes what the service really sends.
  await expectConformance(app.baseUrl, method, path, answer);
  return answer;
}

/** A fresh id for this test, so that tests sharing a database never collide. */
export const uniqueId = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

async function expectCreated<T>(answer: Promise<Answer>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status !== 201) throw new Error(`${what}: expected 201, got ${status} ${JSON.stringify(body)}`);
  return body as T;
}

export async function onboardMerchant(
  app: TestApp,
  merchant: { merchant_id?: string; name?: string; environment?: Environment } = {},
  key = TEST_ADMIN_KEY,
): Promise<MerchantResponse> {
  const body = { merchant_id: uniqueId('m'), name: 'Test Merchant', environment: 'sandbox', ...merchant };
  return (
    await expectCreated<{ merchant: MerchantResponse }>(call(app, 'POST', '/admin/merchants', { key, body }), 'onboard')
  ).merchant;
}

export interface IssuedKey {
  key: string;
  api_key: ApiKeyResponse;
}

export async function issueKey(
  app: TestApp,
  request: { role: Role; merchant_id?: string; environment?: Environment; name?: string; partner_id?: string },
  key = TEST_ADMIN_KEY,
): Promise<IssuedKey> {
  return expectCreated<IssuedKey>(
    call(app, 'POST', '/admin/api-keys', { key, body: request }),
    `issue ${request.role} key`,
  );
}

export async function revokeKey(app: TestApp, keyId: string, key = TEST_ADMIN_KEY): Promise<Answer> {
  return call(app, 'DELETE', `/admin/api-keys/${keyId}`, { key });
}

/** A merchant onboarded by a partner of its own, with a merchant key. */
export interface MerchantFixture {
  merchantId: string;
  /** The merchant key (raw) and its id. */
  key: string;
  keyId: string;
  /** The partner that onboarded the merchant. */
  partnerKey: string;
  partnerKeyId: string;
}

/**
 * Two merchants, A and B, each onboarded by a different partner and each with a merchant key:
 * the setting of every BOLA test (A's keys must not reach B's records, nor A's partner B).
 */
export async function createTwoMerchants(
  app: TestApp,
  environment: Environment = 'sandbox',
): Promise<{ a: MerchantFixture; b: MerchantFixture }> {
  const one = async (): Promise<MerchantFixture> => {
    const partner = await issueKey(app, { role: 'partner', environment });
    const merchant = await onboardMerchant(app, { environment }, partner.key);
    const key = await issueKey(app, { role: 'merchant', merchant_id: merchant.merchant_id }, partner.key);
    return {
      merchantId: merchant.merchant_id,
      key: key.key,
      keyId: key.api_key.id,
      partnerKey: partner.key,
      partnerKeyId: partner.api_key.id,
    };
  };
  return { a: await one(), b: await one() };
}

/**
 * A route any valid key may call, answering with the principal the guard established: for tests
 * that need a key to be accepted (or refused) without depending on a feature's route. Not part of
 * the service, so kept out of its OpenAPI document.
 */
@ApiExcludeController()
@Controller('test-only/whoami')
@Roles(...ROLES)
export class WhoAmIController {
  @Get()
  whoami(@CurrentPrincipal() principal: Principal): Principal {
    return principal;
  }
}
