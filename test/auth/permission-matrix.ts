import type { Role } from '../../src/platform/identity/principal';

/** `public`: no key needed. Otherwise the roles whose keys may call the route; every other valid key gets 403. */
export type Rule = 'public' | readonly Role[];

const ANY_KEY: Rule = ['merchant', 'auditor', 'admin', 'partner'];

/**
 * THE permission matrix: every route of the spec, served or planned, with its rule. The e2e test
 * fails on a served route missing here, checks every served route against it over HTTP, and checks
 * that the README's table says the same. Paths are relative to /api/v1.
 */
export const PERMISSION_MATRIX: Readonly<Record<string, Rule>> = {
  'GET /health': 'public',
  'GET /version': 'public',
  // The OpenAPI document and its browsable page are what an integrator reads before holding a key.
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
  'GET /docs/{asset}': 'public',

  // Transactions: the spec names merchant and partner keys for processing, adds auditors for reading
  // (receipts too: their audit format is for compliance review, see docs/permissions.md).
  'POST /transaction': ['merchant', 'partner'],
  'GET /transactions': ['merchant', 'auditor', 'partner'],
  'GET /transaction/{id}': ['merchant', 'auditor', 'partner'],
  'POST /transaction/override': ['merchant', 'partner'],
  'POST /transaction/refund': ['merchant', 'partner'],
  'POST /transaction/void': ['merchant', 'partner'],
  'GET /transaction/{id}/receipt': ['merchant', 'auditor', 'partner'],
  // docs/design.md, "Rule model, version 3": the merchant for itself, its partner, an admin.
  'PUT /merchant/{merchant_id}/rounding-policy': ['merchant', 'partner', 'admin'],

  // Jurisdiction rules are public law: any valid key.
  'GET /jurisdiction/{state}': ANY_KEY,
  'GET /jurisdiction/{state}/{county}': ANY_KEY,
  'GET /jurisdiction/{state}/{county}/{city}': ANY_KEY,
  'GET /jurisdiction/zip/{zip_code}': ANY_KEY,
  'GET /jurisdictions': ANY_KEY,
  // Changing a rule is an administrative change of what every merchant is held to.
  'PUT /admin/jurisdictions/{lookup_key}': ['admin'],

  // Tips are point-of-sale operations.
  'POST /tip/cash': ['merchant', 'partner'],
  'POST /tip/credit-card': ['merchant', 'partner'],
  'POST /tip/adjust': ['merchant', 'partner'],
  'POST /tip/payout': ['merchant', 'partner'],
  'POST /tip/pool/create': ['merchant', 'partner'],
  'POST /tip/pool/distribute': ['merchant', 'partner'],
  'POST /tip/validate-compliance': ['merchant', 'partner'],

  // Compliance and analytics: platform-wide views, for those who oversee the platform.
  'GET /admin/audit-logs': ['auditor', 'admin'],
  'GET /admin/verify-hash-chain': ['auditor', 'admin'],
  // The read model against the log: a verification as the chain's.
  'GET /admin/verify-transactions': ['auditor', 'admin'],
  'GET /admin/verify-read-models': ['auditor', 'admin'],
  // The raw log for the offline verifier, and the key its checkpoints are signed with: as the audit log.
  'GET /admin/audit-logs/export': ['auditor', 'admin'],
  'GET /admin/checkpoint-key': ['auditor', 'admin'],
  // The Merkle tree's heads and proofs: as the audit log they prove.
  'GET /admin/audit/tree-head': ['auditor', 'admin'],
  'GET /admin/audit/inclusion-proof': ['auditor', 'admin'],
  'GET /admin/audit/consistency-proof': ['auditor', 'admin'],
  'GET /admin/audit/witness': ['auditor', 'admin'],
  // The witnesses' cosignatures on the latest checkpoint and the quorum: as the checkpoint they vouch for.
  'GET /admin/audit/witnessing': ['auditor', 'admin'],
  // The same log in the C2SP formats: as the audit log (and open to anyone with LOG_PUBLIC=true, off here).
  'GET /log/checkpoint': ['auditor', 'admin'],
  'GET /log/vkey': ['auditor', 'admin'],
  'GET /log/tile/{path}': ['auditor', 'admin'],
  'GET /merchant/{merchant_id}/risk-profile': ['admin'],
  'GET /admin/fraud-overview': ['admin'],
  'GET /analytics/tips': ['admin', 'auditor'],
  'GET /analytics/tip-wage-theft': ['admin', 'auditor'],
  'GET /analytics/voids': ['admin', 'auditor'],
  'GET /analytics/void-abuse': ['admin', 'auditor'],
  'GET /overrides/report': ['admin', 'auditor'],
  'POST /export': ['merchant', 'auditor', 'admin'],

  // Keys and merchants.
  'POST /admin/merchants': ['admin', 'partner'],
  'GET /admin/merchants': ['admin', 'partner'],
  'POST /admin/api-keys': ['admin', 'partner'],
  'GET /admin/api-keys': ['admin', 'partner'],
  'DELETE /admin/api-keys/{id}': ['admin', 'partner'],

  // Webhooks: every key manages its owner's endpoints (auditors too: a subscription changes no record).
  'POST /webhooks/endpoints': ANY_KEY,
  'GET /webhooks/endpoints': ANY_KEY,
  'GET /webhooks/endpoints/{id}': ANY_KEY,
  'DELETE /webhooks/endpoints/{id}': ANY_KEY,
  'POST /webhooks/endpoints/{id}/rotate-secret': ANY_KEY,
  'POST /webhooks/endpoints/{id}/replay': ANY_KEY,
  'GET /webhooks/deliveries': ANY_KEY,
};

/** Route parameters are compared by position, not by name: `/transaction/:txnId` is the spec's `/transaction/{id}`. */
export const routeShape = (route: string) => route.replace(/\{[^}]+\}/g, '{}');
