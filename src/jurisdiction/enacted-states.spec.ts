import { settleCash } from '../rules/cash-settlement';
import { seededRuleStore } from '../../test/support/jurisdiction-rules';
import type { JurisdictionRule } from '../rules/jurisdiction-rule';
import { loadSeeds } from './seed-loader';

/** [cash owed, cash tendered or undefined, cash total the text gives] */
type Case = [number, number | undefined, number];

/** The last digit rule that AL, AZ, TN and WA write out: 1, 2, 6, 7 down; 3, 4, 8, 9 up; 0 and 5 stay. */
const DIGIT_RULE: Case[] = [
  [1000, undefined, 1000],
  [1001, undefined, 1000],
  [1002, undefined, 1000],
  [1003, undefined, 1005],
  [1004, undefined, 1005],
  [1005, undefined, 1005],
  [1006, undefined, 1005],
  [1007, undefined, 1005],
  [1008, undefined, 1010],
  [1009, undefined, 1010],
];

/**
 * Each enacted retail rounding rule of the seeds, resolved as a sale on a day it is in force would
 * resolve it, against the cases its own text (as the record's notes and sources give it) works out.
 */
const STATES: Array<{ state: string; zip: string; date: string; source: string; cases: Case[] }> = [
  {
    state: 'AL',
    zip: '35203',
    date: '2026-11-21',
    source: 'Act 2026-548: 1-2 -> 0, 3-4 -> 5, 6-7 -> 5, 8-9 -> next 0',
    cases: DIGIT_RULE,
  },
  {
    state: 'AZ',
    zip: '85004',
    date: '2026-11-21',
    source: 'SB 1108: 1-2 down, 3-4 up, 6-7 down, 8-9 up to a multiple of 5 cents',
    cases: DIGIT_RULE,
  },
  {
    state: 'CT',
    zip: '06103',
    date: '2026-11-21',
    source:
      'DCP: $19.97 is charged $19.95, $1.04 is charged $1.00; C.G.S. 21a-434: never more than the price; exact change is taken as it is',
    cases: [
      [1997, undefined, 1995],
      [104, undefined, 100],
      [1999, 2000, 1995],
      [1997, 1997, 1997],
    ],
  },
  {
    state: 'IN',
    zip: '46204',
    date: '2026-11-21',
    source: 'SB 243 as summarized: to the nearest nickel',
    cases: DIGIT_RULE,
  },
  {
    state: 'TN',
    zip: '37203',
    date: '2026-11-21',
    source:
      'HB 1744 as reported: .01-.02 down, .03-.04 up, .06-.07 down, .08-.09 up, only when exact change is unavailable',
    cases: [...DIGIT_RULE, [1003, 1003, 1003]],
  },
  {
    state: 'WA',
    zip: '98101',
    date: '2026-11-21',
    source: 'SHB 2334: ending 1, 2, 6, 7 down; 3, 4, 8, 9 up',
    cases: DIGIT_RULE,
  },
];

describe('each enacted state, against the worked cases of its own text', () => {
  const resolver = seededRuleStore();

  it('covers every enacted retail rounding rule of the seeds', () => {
    const enacted = loadSeeds()
      .rules.filter((rule) => rule.status === 'enacted' && rule.rule_type === 'rounding' && rule.scope === 'retail')
      .map((rule) => rule.lookup_key);
    expect(STATES.map(({ state }) => state).sort()).toEqual(enacted.sort());
  });

  describe.each(STATES)('$state ($source)', ({ state, zip, date, cases }) => {
    let rule: JurisdictionRule;
    beforeAll(() => {
      rule = resolver.resolve({ zip_code: zip, date }).rule;
    });

    it('is the rule a sale there resolves to', () => {
      expect(rule.lookup_key).toBe(state);
    });

    it.each(cases)('%i¢ tendered %p settles at %i¢', (owed, tendered, total) => {
      const terms = {
        mode: rule.rounding_mode,
        rounds: rule.rounds,
        exact_change_exempt: rule.exact_change_exempt,
        small_total: rule.small_total,
      };
      expect(settleCash(owed, terms, tendered).cash_total_cents).toBe(total);
    });
  });
});
