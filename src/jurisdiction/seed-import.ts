import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '@crcs/tlog';
import { RevisionConflictError } from '../platform/event-store/event-store.errors';
import type { EventStore } from '../platform/event-store/event-store.port';
import type { Sql } from '../platform/event-store/sql';
import { EVENT_SCHEMA_VERSION } from '../platform/identity/command-context';
import { ruleVersionKey, upgradeRecordedRule, type JurisdictionRule } from '../rules/jurisdiction-rule';
import { tipCreditKeysOf, type SeedData, type TipCreditRule } from '../rules/seed-data';
import {
  JURISDICTION_RULE_CHANGED,
  JURISDICTION_RULE_IMPORTED,
  TIP_WAGE_RULE_IMPORTED,
  ruleSeedStream,
  type SeedOrigin,
} from './jurisdiction.events';
import { SEED_FILES } from './seed-loader';

/** How a seed file's records enter the log. */
interface SeedFileImport {
  file: string;
  type: string;
  records: readonly object[];
  /** Which version of which place a record is: a later record of the same identity replaces it. */
  identity: (record: Record<string, unknown>) => string;
  /** The entries that record the same versions otherwise (an administrator's changes). */
  changedBy?: string;
}

/** A rounding rule version is its place, rule type, scope and effective date. */
const ruleIdentity = (record: Record<string, unknown>) =>
  ruleVersionKey(upgradeRecordedRule(record) as unknown as JurisdictionRule);

/** A tip-wage row is its place (the state, a region, a county or a city) and its effective date. */
const tipWageIdentity = (record: Record<string, unknown>) =>
  JSON.stringify(['state', 'region', 'county', 'city', 'effective_date'].map((field) => record[field] ?? null));

/** What a record is as the log stores it (JSON), in one spelling, so that an unchanged one compares equal. */
const asStored = (record: object) => canonicalJson(JSON.parse(JSON.stringify(record)));

/**
 * Imports the rule seed files into the log, record by record: at the first start every record, later
 * only the records that differ from the last import of their identity, so a start with the files
 * unchanged appends nothing. Each entry carries the record and the SHA-256 of the file it came from.
 * An administrator's later change to an imported version does not make the file's record differ: only
 * a change of the file does. A record never imported whose version an administrator changed before
 * (a log older than the import) is not imported: the administrator's change stands, as it did when
 * seeds were read from the files. A record removed from a file stays in the log (an administrator's
 * change supersedes it).
 */
export async function importSeedRules(store: EventStore, db: Sql, dir: string, seeds: SeedData): Promise<void> {
  await importSeedFile(store, db, dir, {
    file: SEED_FILES.rules,
    type: JURISDICTION_RULE_IMPORTED,
    records: seeds.rules,
    identity: ruleIdentity,
    changedBy: JURISDICTION_RULE_CHANGED,
  });
  await importSeedFile(store, db, dir, {
    file: SEED_FILES.tipCredit,
    type: TIP_WAGE_RULE_IMPORTED,
    // A region's record is filed under each of its counties: once each here.
    records: [...new Set([...seeds.tipCreditRules.values()].flat())],
    identity: tipWageIdentity,
  });
}

async function importSeedFile(store: EventStore, db: Sql, dir: string, seed: SeedFileImport): Promise<void> {
  const origin: SeedOrigin = { seed_file: seed.file, seed_sha256: sha256Hex(readFileSync(join(dir, seed.file))) };
  const stream = ruleSeedStream(seed.file);
  for (let attempt = 1; ; attempt++) {
    const imported = await importedRecords(db, seed.file);
    const last = new Map(imported.map((record) => [seed.identity(record), asStored(record)]));
    const changedBefore = new Set((await changedRecords(db, seed.changedBy)).map(seed.identity));
    const changed = seed.records.filter((record) => {
      const identity = seed.identity(record as Record<string, unknown>);
      const before = last.get(identity);
      return before === undefined ? !changedBefore.has(identity) : before !== asStored(record);
    });
    if (changed.length === 0) return;
    try {
      await store.append(
        stream,
        changed.map((rule) => ({
          type: seed.type,
          data: { ...origin, rule: rule as Record<string, unknown> },
          metadata: { schemaVersion: EVENT_SCHEMA_VERSION },
        })),
        { expectedRevision: imported.length },
      );
      return;
    } catch (error) {
      // Another process starting beside this one imported first: compare with what it recorded.
      if (!(error instanceof RevisionConflictError) || attempt === 3) throw error;
    }
  }
}

/** The records imported from a seed file, in the order imported. */
async function importedRecords(db: Sql, file: string): Promise<Record<string, unknown>[]> {
  const rows = await db.query<{ rule: Record<string, unknown> }>(
    `select data->'rule' as rule from events where stream_id = $1 order by stream_revision`,
    [ruleSeedStream(file)],
  );
  return rows.map((row) => row.rule);
}

/** The records of the entries of `type` (none without one). */
async function changedRecords(db: Sql, type: string | undefined): Promise<Record<string, unknown>[]> {
  if (type === undefined) return [];
  const rows = await db.query<{ rule: Record<string, unknown> }>(
    `select data->'rule' as rule from events where event_type = $1`,
    [type],
  );
  return rows.map((row) => row.rule);
}

/**
 * Fills `rules` with the tip-wage rows the service checks tips against: the last imported record of
 * each identity, filed as the seed loader files them (per key, by effective date), from the log alone.
 */
export async function readTipWageRules(db: Sql, rules: Map<string, TipCreditRule[]>): Promise<void> {
  const latest = new Map<string, TipCreditRule>();
  for (const record of await importedRecords(db, SEED_FILES.tipCredit))
    latest.set(tipWageIdentity(record), record as unknown as TipCreditRule);
  rules.clear();
  for (const rule of latest.values()) {
    for (const key of tipCreditKeysOf(rule)) rules.set(key, [...(rules.get(key) ?? []), rule]);
  }
  for (const versions of rules.values())
    versions.sort((a, b) => (a.effective_date ?? '').localeCompare(b.effective_date ?? ''));
}
