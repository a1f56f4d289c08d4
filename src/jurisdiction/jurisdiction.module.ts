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
import { defaultSeedDir, loadSeeds } from './seed-loader';
import { AppConfig } from '../platform/config/config';
import type { SeedData, TipCreditRule } from '../rules/seed-data';
import { SEED_DATA, SEED_FILES_READ, TIP_WAGE_RULES } from './jurisdiction.tokens';

/**
 * Jurisdiction data and resolution. A seed file that fails its checks stops the start with the
 * file and row in the message; at bootstrap, the rule files' records changed since the last start
 * are imported into the log before anything reads the rules. Other features inject
 * `JurisdictionRuleStore` to resolve a sale's rule: it holds every rule version of the log
 * (imported or changed by an administrator), kept current by JurisdictionRuleSync. Global because
 * sales, tips and /health all read this one data set.
 */
@Global()
@Module({
  imports: [CommandModule],
  controllers: [LookUpJurisdictionController, ChangeJurisdictionRuleController],
  providers: [
    { provide: TIP_WAGE_RULES, useFactory: () => new Map<string, TipCreditRule[]>() },
    {
      provide: SEED_FILES_READ,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => loadSeeds(config.seedDir ?? defaultSeedDir()),
    },
    {
      provide: SEED_DATA,
      inject: [SEED_FILES_READ, TIP_WAGE_RULES],
      useFactory: (files: SeedData, tipWageRules: SeedData['tipCreditRules']): SeedData => ({
        ...files,
        tipCreditRules: tipWageRules,
      }),
    },
    {
      provide: JurisdictionRuleStore,
      inject: [SEED_FILES_READ],
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
