import fc from 'fast-check';
import { given } from '../../test/support/decider';
import { tipPoolDecider, type CreateTipPool, type TipSnapshot } from './tip-pool.decider';
import {
  PoolAlreadyDistributedError,
  TipAlreadyPooledError,
  TipRecordExistsError,
  TipRecordNotFoundError,
} from './tip.errors';
import type { PoolParticipant, TipPoolDistributed, TipPooled } from './tip.events';

const NOW = '2026-11-21T12:00:00.000Z';
const LATER = '2026-11-21T23:00:00.000Z';
const POOL = 'POOL-2026-11-21-AAAAAAAA';

const tip = (id: string, employeeId: string, amountCents: number, poolId: string | null = null): TipSnapshot => ({
  tip_id: id,
  employee_id: employeeId,
  employee_name: `Name of ${employeeId}`,
  amount_cents: amountCents,
  pool_id: poolId,
});

const TIPS = [tip('TIP-1', 'e-1', 1000), tip('TIP-2', 'e-2', 1500), tip('TIP-3', 'e-1', 501)];
const PEOPLE: PoolParticipant[] = [
  { employeeId: 'e-1', employeeName: 'Ana' },
  { employeeId: 'e-2', employeeName: 'Bo' },
  { employeeId: 'e-3', employeeName: 'Cy' },
];

const create = (fields: Partial<CreateTipPool> = {}): CreateTipPool => ({
  kind: 'CreateTipPool',
  pool_id: POOL,
  merchant_id: 'm-1',
  pool_name: 'Friday dinner',
  distribution_method: 'equal',
  participants: PEOPLE,
  tips: TIPS,
  now: NOW,
  ...fields,
});

const pooledBy = (command: CreateTipPool): TipPooled => {
  const [event] = tipPoolDecider.decide(command, tipPoolDecider.initialState());
  return event as TipPooled;
};

describe('tip pool decider: create', () => {
  it('pools the tips with their amounts, total and contributors', () => {
    given(tipPoolDecider)
      .when(create())
      .then([
        {
          type: 'TipPooled',
          data: {
            pool_id: POOL,
            merchant_id: 'm-1',
            pool_name: 'Friday dinner',
            distribution_method: 'equal',
            participants: PEOPLE,
            tips: TIPS.map(({ pool_id: _pool, ...rest }) => rest),
            total_cents: 3001,
            contributors: ['e-1', 'e-2'],
            created_at: NOW,
          },
        },
      ]);
  });

  it('keeps only the basis of the method with each participant', () => {
    const participants = [
      { employeeId: 'e-1', employeeName: 'Ana', hours: 7.5 },
      { employeeId: 'e-2', employeeName: 'Bo', hours: 4 },
    ];
    const [event] = given(tipPoolDecider)
      .when(create({ distribution_method: 'hours_based', participants }))
      .then([expect.anything()]);
    expect((event as TipPooled).data.participants).toEqual(participants);
  });

  it.each([
    ['weighted', [{ employeeId: 'e-1', employeeName: 'Ana' }], 'participants.0.weight'],
    ['hours_based', [{ employeeId: 'e-1', employeeName: 'Ana', weight: 2, hours: 1 }], 'participants.0.weight'],
    ['hours_based', [{ employeeId: 'e-1', employeeName: 'Ana' }], 'participants.0.hours'],
    ['equal', [{ employeeId: 'e-1', employeeName: 'Ana', hours: 3 }], 'participants.0.hours'],
    ['weighted', [{ employeeId: 'e-1', employeeName: 'Ana', weight: 1, hours: 3 }], 'participants.0.hours'],
    [
      'equal',
      [
        { employeeId: 'e-1', employeeName: 'Ana' },
        { employeeId: 'e-1', employeeName: 'Ana again' },
      ],
      'participants.1.employeeId',
    ],
  ] as const)('refuses a %s pool with participants %j (400 on %s)', (distributionMethod, participants, field) => {
    given(tipPoolDecider)
      .when(create({ distribution_method: distributionMethod, participants: [...participants] }))
      .thenThrows(
        expect.objectContaining({
          status: 400,
          code: 'VALIDATION_ERROR',
          details: [expect.objectContaining({ field })],
        }),
      );
  });

  it('refuses tips that sit in another pool, naming them', () => {
    given(tipPoolDecider)
      .when(create({ tips: [tip('TIP-1', 'e-1', 100), tip('TIP-9', 'e-2', 100, 'POOL-OTHER')] }))
      .thenThrows(TipAlreadyPooledError, { status: 409, message: expect.stringContaining('TIP-9 (pool POOL-OTHER)') });
  });

  it('refuses a pool id that is taken', () => {
    given(tipPoolDecider, [pooledBy(create())])
      .when(create())
      .thenThrows(TipRecordExistsError);
  });
});

describe('tip pool decider: distribute', () => {
  const distributedBy = (command: CreateTipPool) => {
    const events = tipPoolDecider.decide(
      { kind: 'DistributeTipPool', pool_id: POOL, now: LATER },
      given(tipPoolDecider, [pooledBy(command)]).state,
    );
    return { summary: events[0] as TipPoolDistributed, payouts: events.slice(1) };
  };

  it('splits equally, rounding each share up, and pays each participant in an entry of its own', () => {
    given(tipPoolDecider, [pooledBy(create())])
      .when({ kind: 'DistributeTipPool', pool_id: POOL, now: LATER })
      .then([
        {
          type: 'TipPoolDistributed',
          data: {
            pool_id: POOL,
            merchant_id: 'm-1',
            distribution_method: 'equal',
            total_cents: 3001,
            total_distributed_cents: 3003,
            rounding_adjustment_cents: 2,
            shares: PEOPLE.map((p) => ({ ...p, share_cents: 1001 })),
            distributed_at: LATER,
          },
        },
        ...PEOPLE.map((p) => ({
          type: 'TipPoolSharePaid' as const,
          data: {
            pool_id: POOL,
            merchant_id: 'm-1',
            employee_id: p.employeeId,
            employee_name: p.employeeName,
            share_cents: 1001,
            paid_at: LATER,
          },
        })),
      ]);
  });

  it('splits by weight', () => {
    const participants = [
      { employeeId: 'e-1', employeeName: 'Ana', weight: 2 },
      { employeeId: 'e-2', employeeName: 'Bo', weight: 1 },
    ];
    const { summary } = distributedBy(create({ distribution_method: 'weighted', participants }));
    expect(summary.data.shares.map((s) => s.share_cents)).toEqual([2001, 1001]);
    expect(summary.data).toMatchObject({ total_distributed_cents: 3002, rounding_adjustment_cents: 1 });
  });

  it('splits by hours', () => {
    const participants = [
      { employeeId: 'e-1', employeeName: 'Ana', hours: 7.5 },
      { employeeId: 'e-2', employeeName: 'Bo', hours: 2.5 },
    ];
    const { summary } = distributedBy(
      create({ distribution_method: 'hours_based', participants, tips: [tip('TIP-1', 'e-1', 1001)] }),
    );
    expect(summary.data.shares).toEqual([
      { ...participants[0], share_cents: 751 },
      { ...participants[1], share_cents: 251 },
    ]);
    expect(summary.data.rounding_adjustment_cents).toBe(1);
  });

  it('reports what it distributed: the shares sum to the total plus the adjustment, each payout matches its share', () => {
    const amounts = fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 30 });
    const hours = fc.array(
      fc.integer({ min: 1, max: 8000 }).map((n) => n / 100),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(amounts, hours, (cents, hs) => {
        const participants = hs.map((h, i) => ({ employeeId: `e-${i}`, employeeName: `E${i}`, hours: h }));
        const tips = cents.map((c, i) => tip(`TIP-${i}`, `e-${i}`, c));
        const { summary, payouts } = distributedBy(create({ distribution_method: 'hours_based', participants, tips }));
        const { data } = summary;
        const sum = data.shares.reduce((a, s) => a + s.share_cents, 0);
        expect(data.total_cents).toBe(cents.reduce((a, b) => a + b, 0));
        expect(data.total_distributed_cents).toBe(sum);
        expect(data.rounding_adjustment_cents).toBe(sum - data.total_cents);
        expect(data.rounding_adjustment_cents).toBeGreaterThanOrEqual(0);
        expect(data.rounding_adjustment_cents).toBeLessThan(participants.length);
        expect(payouts.map((p) => p.data)).toEqual(
          data.shares.map((s) => expect.objectContaining({ employee_id: s.employeeId, share_cents: s.share_cents })),
        );
      }),
    );
  });

  it('refuses a second distribution', () => {
    const pooled = pooledBy(create());
    const events = tipPoolDecider.decide(
      { kind: 'DistributeTipPool', pool_id: POOL, now: LATER },
      given(tipPoolDecider, [pooled]).state,
    );
    given(tipPoolDecider, [pooled, ...events])
      .when({ kind: 'DistributeTipPool', pool_id: POOL, now: LATER })
      .thenThrows(PoolAlreadyDistributedError, { status: 409, code: 'POOL_ALREADY_DISTRIBUTED' });
  });

  it('answers an unknown pool with 404', () => {
    given(tipPoolDecider)
      .when({ kind: 'DistributeTipPool', pool_id: POOL, now: LATER })
      .thenThrows(TipRecordNotFoundError, { status: 404 });
  });
});
