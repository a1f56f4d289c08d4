import { Global, Module } from '@nestjs/common';
import { CommandModule } from '../platform/command.module';
import { ChangeJurisdictionRuleController } from './change-jurisdiction-rule/change-jurisdiction-rule.controller';
import { ChangeJurisdictionRuleHandler } from './change-jurisdiction-rule/change-jurisdiction-rule.handler';
import { JurisdictionRuleSync } from './jurisdiction-rule-sync';
import { JurisdictionRuleStore } from './rule-store';
import { LookUpJurisdictionController } from './look-up-jurisdiction/look-up-jurisdiction.controller';
import {
  JurisdictionLookupHandler,
  ListJurisdictionsHandler,
} from './look-up-jurisdiction/look-up-jurisdiction.handler';
import { loadSeeds } from './seed-loader';
import type { SeedData } from '../rules/seed-data';

/** Injection token for the checked seed data (ZIPs, rules, tip credit rules), loaded once at start. */
export const SEED_DATA = Symbol('SEED_DATA');

/**
 * Jurisdiction data and resolution. A seed file that fails its checks stops the start with the
 * file and row in the message. Other features inject `JurisdictionRuleStore` to resolve a sale's
 * rule: it holds the seeds plus every rule change recorded in the log, kept current by
 * JurisdictionRuleSync. Global because sales, tips and /health all read this one data set.
 */
@Global()
@Module({
  imports: [CommandModule],
  controllers: [LookUpJurisdictionController, ChangeJurisdictionRuleController],
  providers: [
    { provide: SEED_DATA, useFactory: (): SeedData => loadSeeds() },
    {
      provide: JurisdictionRuleStore,
      inject: [SEED_DATA],
      useFactory: (seeds: SeedData) => new JurisdictionRuleStore(seeds),
    },
    JurisdictionRuleSync,
    ChangeJurisdictionRuleHandler,
    JurisdictionLookupHandler,
    ListJurisdictionsHandler,
  ],
  exports: [SEED_DATA, JurisdictionRuleStore],
})
export class JurisdictionModule {}
