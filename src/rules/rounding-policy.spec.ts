import fc from 'fast-check';
import { settleCash } from './cash-settlement';
import { ENFORCEMENTS } from './jurisdiction-rule';
import { ROUNDING_MODES } from './rounding-engine';
import { isLawfulCashTotal, policyTerms, type RuleLaw } from './rounding-policy';

const rule = (fields: Partial<RuleLaw> = {}): RuleLaw => ({
  jurisdiction_id: 'US-XX',
  legislation: 'Test Act 1',
  rounding_mode: 'symmetrical_rounding',
  choice: null,
  enforcement: 'mandatory',
  rounds: 'total',
  exact_change_exempt: false,
  small_total: null,
  ...fields,
});

const floorNickel = (c: number) => c - (c % 5);
const ceilNickel = (c: number) => (c % 5 === 0 ? c : c + 5 - (c % 5));

const anyRule = fc.record({
  rounding_mode: fc.constantFrom(...ROUNDING_MODES),
  choice: fc.constantFrom(null, 'either_neighbor' as const),
  enforcement: fc.constantFrom(...ENFORCEMENTS),
  rounds: fc.constantFrom('total' as const, 'change' as const),
  exact_change_exempt: fc.boolean(),
  small_total: fc.constantFrom(
    null,
    { kind: 'round_up_to_nickel' as const },
    { kind: 'exempt_up_to' as const, cents: 4 },
  ),
});

describe('either_neighbor: the retailer chooses the neighbour', () => {
  it('accepts both neighbouring multiples of 5 cents and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: -10, max: 10 }), (cash, offset) => {
        const total = cash + offset;
        const lawful = isLawfulCashTotal(rule({ choice: 'either_neighbor' }), cash, total);
        expect(lawful).toBe(total === floorNickel(cash) || total === ceilNickel(cash));
      }),
    );
  });

  it('without a choice, accepts only what the mode gives', () => {
    expect(isLawfulCashTotal(rule(), 1003, 1005)).toBe(true);
    expect(isLawfulCashTotal(rule(), 1003, 1000)).toBe(false);
    expect(isLawfulCashTotal(rule({ choice: 'either_neighbor' }), 1003, 1000)).toBe(true);
  });

  it('does not accept a neighbour above what was tendered', () => {
    expect(isLawfulCashTotal(rule({ choice: 'either_neighbor' }), 1003, 1005, 1003)).toBe(false);
    expect(isLawfulCashTotal(rule({ choice: 'either_neighbor' }), 1003, 1000, 1003)).toBe(true);
  });
});

describe('favor_customer', () => {
  it('never rounds up, except where a mandatory rule makes 1–2¢ totals 5¢; and never gives a result a mandatory rule refuses', () => {
    fc.assert(
      fc.property(anyRule, fc.integer({ min: 0, max: 10_000_000 }), (fields, cash) => {
        const law = rule(fields);
        const { terms, policy } = policyTerms(law, 'favor_customer');
        const settled = settleCash(cash, terms);
        const mandatorySmallTotal =
          law.enforcement === 'mandatory' && law.small_total?.kind === 'round_up_to_nickel' && cash <= 2;
        if (policy.applied === 'favor_customer' && !mandatorySmallTotal)
          expect(settled.rounding_delta_cents).toBeLessThanOrEqual(0);
        if (law.enforcement === 'mandatory') expect(isLawfulCashTotal(law, cash, settled.cash_total_cents)).toBe(true);
        // The policy gives way only to a mandatory rule, and then says why.
        expect(policy.applied === 'rule').toBe(
          law.enforcement === 'mandatory' && law.choice === null && law.rounding_mode !== 'mandatory_round_down',
        );
        expect(policy.reason === null).toBe(policy.applied === 'favor_customer');
      }),
    );
  });

  it('gives way to a mandatory rule that rounds to the nearest nickel, naming it', () => {
    const { terms, policy } = policyTerms(rule({ rounding_mode: 'swedish_rounding' }), 'favor_customer');
    expect(terms.mode).toBe('swedish_rounding');
    expect(policy).toEqual({
      requested: 'favor_customer',
      applied: 'rule',
      reason:
        'the mandatory swedish_rounding rule of US-XX (Test Act 1) does not let a merchant round down; the rule was applied',
    });
  });

  it('rounds down under a permissive rule, and leaves a rule policy alone', () => {
    expect(policyTerms(rule({ enforcement: 'permissive' }), 'favor_customer').terms.mode).toBe('mandatory_round_down');
    expect(policyTerms(rule({ enforcement: 'permissive' }), 'rule')).toEqual({
      terms: { mode: 'symmetrical_rounding', rounds: 'total', exact_change_exempt: false, small_total: null },
      policy: { requested: 'rule', applied: 'rule', reason: null },
    });
  });
});
