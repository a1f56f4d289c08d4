import { loadSeeds } from '../../src/jurisdiction/seed-loader';
import { seededRandom, shuffled } from './random';

/** A day's mix at a U.S. grocery counter: about half cash, a third card, some EBT, mobile and split tenders. */
const MIX = [
  { weight: 48, kind: 'cash' },
  { weight: 32, kind: 'card' },
  { weight: 8, kind: 'ebt' },
  { weight: 6, kind: 'mobile' },
  { weight: 6, kind: 'split' },
] as const;

export interface BenchSale {
  /** Which of the bench's merchants (and so which key) sends it. */
  merchant: number;
  /** The JSON body, serialized once so the load generator spends its CPU sending, not building. */
  body: string;
}

/**
 * `count` varied sales over `merchants` merchants: ZIPs from the whole seed list (so resolution
 * meets every kind of rule), amounts from $0.50 to $150, 0 to 10% tax, the tender mix above, and a
 * few cashiers per merchant (so velocity scoring has history to read).
 */
export function benchSales(count: number, merchantIds: readonly string[], seed = 7): BenchSale[] {
  const random = seededRandom(seed);
  const zips = shuffled([...loadSeeds().zips.keys()], seed);
  const total = MIX.reduce((sum, { weight }) => sum + weight, 0);
  const pick = () => {
    let roll = random() * total;
    return MIX.find(({ weight }) => (roll -= weight) < 0)!.kind;
  };
  return Array.from({ length: count }, (_, i) => {
    const merchant = i % merchantIds.length;
    // The merchant's own count of sales: `i` alone would give each merchant one lane and one cashier.
    const turn = Math.floor(i / merchantIds.length);
    const subtotal = 50 + Math.floor(random() * 14_950);
    const tax = Math.floor((subtotal * Math.floor(random() * 11)) / 100);
    const kind = pick();
    const due = subtotal + tax;
    const ebt = Math.floor(due / 2);
    const split = kind === 'split' && {
      is_split_tender: true,
      tenders: [
        { type: 'ebt', amount_cents: ebt },
        { type: 'cash', amount_cents: due - ebt },
      ],
    };
    const body = {
      merchant_id: merchantIds[merchant],
      subtotal_cents: subtotal,
      tax_total_cents: tax,
      payment_method: kind === 'split' ? 'cash' : kind,
      zip_code: zips[i % zips.length],
      store_id: `store-${merchant}`,
      terminal_id: `lane-${turn % 6}`,
      cashier_id: `cashier-${merchant}-${turn % 4}`,
      ...split,
    };
    return { merchant, body: JSON.stringify(body) };
  });
}
