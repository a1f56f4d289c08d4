/**
 * A point-of-sale client for the Cash Rounding Compliance Service, written the way a POS would call
 * it: Node's built-in `fetch`, no framework and no SDK, so it can be copied into any codebase
 * (with service-client.ts, the request helper it shares with the auditor's script).
 *
 *   CRCS_ADMIN_KEY=<the service's ADMIN_API_KEY> npm run example:pos
 *   CRCS_BASE_URL=http://127.0.0.1:3000/api/v1 (the default)
 *
 * One store's day, in six steps:
 *   1. onboard the merchant and issue the terminal a merchant key (a real POS gets both from its
 *      vendor once; they are here so that the example runs against a fresh service);
 *   2. ring up the day's sales: cash (rounded to the nickel), card, EBT, mobile and two split
 *      tenders, each with an Idempotency-Key, and retry one to show that a retry is safe;
 *   3. void one sale; 4. refund part of another;
 *   5. print every receipt of the day; 6. print the day's totals as the service's read model has them.
 *
 * Any answer other than 2xx prints the service's `{error, message}` on stderr and exits 1.
 */
import { randomUUID } from 'node:crypto';
import { BASE_URL, describeFailure, request, type RequestOptions } from './service-client';

const ADMIN_KEY = process.env.CRCS_ADMIN_KEY ?? '';

/**
 * Phoenix, AZ (ZIP 85004). Arizona's rule is mandatory swedish rounding: a cash total goes to the
 * nearest nickel ($7.87 is $7.85, $12.48 is $12.50). The ZIP is enough: the service resolves city,
 * county and state itself, and records the rule it applied with each sale.
 */
const STORE = { store_id: 'phx-001', terminal_id: 'lane-2', zip_code: '85004' };
const CASHIER = 'cashier-114';
/** Voids need a reason from a fixed list and an authorizing employee (see step 3). */
const MANAGER = 'manager-07';

// ---------------------------------------------------------------------------------------------
// A small typed helper for calls
// ---------------------------------------------------------------------------------------------

interface Answer<T> {
  body: T;
  /** True when the service answered a retry from its idempotency record. */
  replayed: boolean;
}

/** One request; resolves with the JSON of a 2xx answer and throws an ApiError for any other. */
async function call<T>(method: 'GET' | 'POST', path: string, options: RequestOptions): Promise<Answer<T>> {
  const response = await request(method, path, options);
  return { body: (await response.json()) as T, replayed: response.headers.get('idempotent-replayed') === 'true' };
}

// ---------------------------------------------------------------------------------------------
// What the service answers (only the fields this client reads)
// ---------------------------------------------------------------------------------------------

type TenderType = 'cash' | 'card' | 'ebt' | 'mobile';
interface Tender {
  type: TenderType;
  amount_cents: number;
}

interface Transaction {
  id: string;
  type: 'SALE' | 'VOID' | 'REFUND';
  /** A sale: completed, overridden, voided, partially_refunded or refunded. VOID and REFUND records: completed. */
  state: string;
  original_transaction_id: string | null;
  chain_position: number;
  auditHash: string;
  calculation: {
    ledger_total_cents: number;
    /** Single tender: the amount to collect. Split tender: the rounded cash portion. */
    cash_total_cents: number;
    /** The unrounded part paid in cash (0 for card, EBT and mobile). */
    cash_portion_cents: number;
    rounding_delta_cents: number;
    cash_rounding_mode: string;
    jurisdiction: string;
    rounding_applied: boolean;
    tenders: (Tender & { rounded: boolean })[];
  };
  compliance: { compliance_status: 'PASS' | 'WARN' | 'FAIL' };
  reversal: {
    refund_amount_cents: number | null;
    normalization: {
      passed: boolean;
      original_rounding_delta_cents: number;
      refund_rounding_delta_cents: number;
    } | null;
  } | null;
  refundable_cents: number;
}

/** `POST /transaction/void` and `/refund`: the new record, and the sale as it stands after it. */
interface SaleChange {
  transaction: Transaction;
  original: Transaction;
}

// ---------------------------------------------------------------------------------------------
// Money, as the service keeps it: integer cents, never floating-point dollars
// ---------------------------------------------------------------------------------------------

const dollars = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const signed = (cents: number) => `${cents > 0 ? '+' : ''}${dollars(cents)}`;

/**
 * Phoenix's combined sales tax, 8.6%, on the unrounded subtotal. The POS computes the tax; the
 * service takes it as given and never recalculates it after rounding.
 */
const taxOn = (subtotalCents: number) => Math.round((subtotalCents * 86) / 1000);

// ---------------------------------------------------------------------------------------------
// The day
// ---------------------------------------------------------------------------------------------

interface Sale {
  label: string;
  subtotal_cents: number;
  tax_total_cents: number;
  payment_method: TenderType;
  /** Split tenders only: how the customer paid; they must add up to subtotal + tax. */
  tenders?: Tender[];
}

/** A single-tender sale of taxable goods. */
const single = (label: string, subtotal: number, paymentMethod: TenderType): Sale => ({
  label,
  subtotal_cents: subtotal,
  tax_total_cents: taxOn(subtotal),
  payment_method: paymentMethod,
});

const DAY: Sale[] = [
  single('coffee and a muffin', 725, 'cash'), // $7.87 in cash: rounds down to $7.85
  single('sandwich and a drink', 1149, 'cash'), // $12.48: rounds up to $12.50
  single('magazine', 599, 'cash'), // $6.51: rounds down to $6.50
  single('groceries', 4250, 'card'), // card payments are never rounded
  // SNAP purchases carry no sales tax; EBT is never rounded (7 CFR 278.2).
  { label: 'groceries', subtotal_cents: 1873, tax_total_cents: 0, payment_method: 'ebt' },
  single('phone charger', 1999, 'mobile'), // mobile payments are never rounded
  {
    // $60.82, $50 of it on a card: only the $10.82 in cash is rounded (to $10.80).
    label: 'weekly shop',
    subtotal_cents: 5600,
    tax_total_cents: taxOn(5600),
    payment_method: 'cash',
    tenders: [
      { type: 'card', amount_cents: 5000 },
      { type: 'cash', amount_cents: 5600 + taxOn(5600) - 5000 },
    ],
  },
  {
    // $15.00 of food on EBT (untaxed), $6.99 of household goods plus their tax in cash: $7.59, rounded to $7.60.
    label: 'food on EBT, household goods in cash',
    subtotal_cents: 1500 + 699,
    tax_total_cents: taxOn(699),
    payment_method: 'cash',
    tenders: [
      { type: 'ebt', amount_cents: 1500 },
      { type: 'cash', amount_cents: 699 + taxOn(699) },
    ],
  },
];

async function main(): Promise<void> {
  if (!ADMIN_KEY) {
    process.stderr.write(
      "Set CRCS_ADMIN_KEY to the service's ADMIN_API_KEY (and CRCS_BASE_URL if it is not on 127.0.0.1:3000).\n",
    );
    process.exit(2);
  }
  console.log(`POS example against ${BASE_URL}`);

  // 1. Onboarding. The merchant id must be new: a timestamp keeps reruns against one service apart.
  const merchantId = `corner-market-${Date.now().toString(36)}`;
  await call('POST', '/admin/merchants', {
    key: ADMIN_KEY,
    body: { merchant_id: merchantId, name: 'Corner Market (POS example)', environment: 'sandbox' },
  });
  // The raw key is shown once, in this answer: a real POS stores it in its secret store now.
  const issued = await call<{ key: string; api_key: { id: string } }>('POST', '/admin/api-keys', {
    key: ADMIN_KEY,
    body: { role: 'merchant', merchant_id: merchantId, name: `${STORE.store_id} ${STORE.terminal_id}` },
  });
  const key = issued.body.key;
  console.log(
    `\n1. Onboarded merchant ${merchantId}; merchant key ${issued.body.api_key.id} issued for ${STORE.store_id} ${STORE.terminal_id}`,
  );

  // 2. The sales. Everything else the service needs (rule, mode, exemptions) it finds from the ZIP.
  console.log(`\n2. Sales at ZIP ${STORE.zip_code}`);
  const saleRequest = (sale: Sale) => ({
    merchant_id: merchantId,
    ...STORE,
    cashier_id: CASHIER,
    subtotal_cents: sale.subtotal_cents,
    tax_total_cents: sale.tax_total_cents,
    payment_method: sale.payment_method,
    ...(sale.tenders && { is_split_tender: true, tenders: sale.tenders }),
  });
  const recorded: { sale: Sale; transaction: Transaction; idempotencyKey: string }[] = [];
  for (const sale of DAY) {
    const idempotencyKey = randomUUID();
    const { body } = await call<{ transaction: Transaction }>('POST', '/transaction', {
      key,
      idempotencyKey,
      body: saleRequest(sale),
    });
    const t = body.transaction;
    recorded.push({ sale, transaction: t, idempotencyKey });
    const paid = sale.tenders
      ? sale.tenders.map((tender) => `${tender.type} ${dollars(tender.amount_cents)}`).join(' + ')
      : sale.payment_method;
    const rounding = t.calculation.rounding_applied
      ? `cash ${dollars(t.calculation.cash_total_cents)} (${signed(t.calculation.rounding_delta_cents)}, ${t.calculation.cash_rounding_mode})`
      : 'not rounded';
    console.log(
      `   ${t.id}  ${sale.label}: ${dollars(t.calculation.ledger_total_cents)} by ${paid}, ${rounding}, ${t.calculation.jurisdiction} ${t.compliance.compliance_status}`,
    );
  }

  // A retry, as after a timeout: same body, same Idempotency-Key. The service answers the first
  // answer again (header `idempotent-replayed: true`) and records nothing new.
  const first = recorded[0];
  const retry = await call<{ transaction: Transaction }>('POST', '/transaction', {
    key,
    idempotencyKey: first.idempotencyKey,
    body: saleRequest(first.sale),
  });
  console.log(
    `   retry of ${first.transaction.id} with its Idempotency-Key: answered ${retry.body.transaction.id} again (replayed: ${retry.replayed}), nothing recorded twice`,
  );

  // 3. A void cancels a whole sale: a VOID record mirroring it with negative amounts, so the
  // rounding is reversed too. Policies (422 VOID_POLICY_VIOLATION otherwise): within 24 hours of the
  // sale, a cash total under the threshold ($1,000 by default), and a reason from the list;
  // `customer_changed_mind` only within 30 minutes, `employee_error` only by another employee than
  // the cashier.
  const voided = recorded[1].transaction;
  const voidAnswer = await call<SaleChange>('POST', '/transaction/void', {
    key,
    idempotencyKey: randomUUID(),
    body: { original_transaction_id: voided.id, void_reason: 'customer_changed_mind', voided_by: MANAGER },
  });
  const voidRecord = voidAnswer.body.transaction;
  console.log(
    `\n3. Voided ${voided.id} (customer_changed_mind, by ${MANAGER}): VOID ${voidRecord.id}, ` +
      `cash ${dollars(voidRecord.calculation.cash_total_cents)}, rounding ${signed(voidRecord.calculation.rounding_delta_cents)}; the sale is now ${voidAnswer.body.original.state}`,
  );

  // 4. A refund gives back part (or all) of a sale's cash total: the muffin ($3.75 + tax) is
  // returned. `refund_amount` is what the goods cost (a full refund: the sale's cash total); the
  // cash handed back is rounded like a sale, and the service checks that this rounding goes the
  // other way from the sale's (the normalization check): a failure is flagged (WARN), never refused.
  // A refund above what is left of the cash total is a 409 REFUND_EXCEEDS_PAID.
  const refunded = recorded[0].transaction;
  const muffin = 375 + taxOn(375);
  const refundAnswer = await call<SaleChange>('POST', '/transaction/refund', {
    key,
    idempotencyKey: randomUUID(),
    body: {
      original_transaction_id: refunded.id,
      refund_amount: muffin,
      void_reason: 'defective_product',
      voided_by: CASHIER,
    },
  });
  const refundRecord = refundAnswer.body.transaction;
  const normalization = refundRecord.reversal?.normalization;
  console.log(
    `\n4. Refunded ${dollars(muffin)} of ${refunded.id} (defective_product, by ${CASHIER}): REFUND ${refundRecord.id}, ` +
      `cash handed back ${dollars(-refundRecord.calculation.cash_total_cents)}, rounding ${signed(refundRecord.calculation.rounding_delta_cents)}, ` +
      `normalization check ${normalization?.passed ? 'passed' : 'FAILED (flagged for review)'}; ` +
      `the sale is now ${refundAnswer.body.original.state}, ${dollars(refundAnswer.body.original.refundable_cents)} still refundable`,
  );

  // 5. The day's records as the service lists them (its read model), in the order they were made,
  // and each one's receipt with the rounding disclosure the state requires. The list follows the
  // log a moment behind the writes: min_position, the last write's chain position, waits for it.
  const day = await listAll(key, refundRecord.chain_position);
  console.log(`\n5. Receipts (${day.length})`);
  for (const t of day) {
    const { body } = await call<{ receipt: { text: string } }>(
      'GET',
      `/transaction/${encodeURIComponent(t.id)}/receipt?format=merchant`,
      { key },
    );
    console.log(`${'-'.repeat(38)}\n${body.receipt.text}`);
  }
  console.log('-'.repeat(38));

  // 6. End of day. VOID and REFUND records carry negative amounts, so plain sums are net figures.
  const sales = day.filter((t) => t.type === 'SALE');
  const sum = (pick: (t: Transaction) => number) => day.reduce((total, t) => total + pick(t), 0);
  const ledger = sum((t) => t.calculation.ledger_total_cents);
  // Cash that changed hands: the cash part of each record after rounding (0 for card, EBT, mobile).
  const cash = sum((t) => t.calculation.cash_portion_cents + t.calculation.rounding_delta_cents);
  const rounding = sum((t) => t.calculation.rounding_delta_cents);
  const changed = new Map<string, number>();
  for (const t of sales) if (t.state !== 'completed') changed.set(t.state, (changed.get(t.state) ?? 0) + 1);
  const states = [...changed].map(([state, count]) => `${count} ${state.replace('_', ' ')}`).join(', ');
  console.log(
    `\nDay summary: ${sales.length} sales${states ? ` (${states})` : ''}, ledger total ${dollars(ledger)}, ` +
      `cash collected ${dollars(cash)}, net rounding ${signed(rounding)}`,
  );
}

/** Every record of the merchant up to `minPosition` at least, a page at a time (a merchant key sees its own merchant only). */
async function listAll(key: string, minPosition: number): Promise<Transaction[]> {
  const all: Transaction[] = [];
  for (;;) {
    const { body } = await call<{ transactions: Transaction[]; total: number }>(
      'GET',
      `/transactions?limit=1000&offset=${all.length}&min_position=${minPosition}`,
      { key },
    );
    all.push(...body.transactions);
    if (body.transactions.length === 0 || all.length >= body.total) break;
  }
  return all.sort((a, b) => a.chain_position - b.chain_position);
}

main().catch((error: unknown) => {
  process.stderr.write(`${describeFailure(error)}\n`);
  process.exit(1);
});
