/** What other features may use of this one: everything else in the folder is its own. */
export { SEED_DATA } from './jurisdiction.tokens';
export { DataSummaryDto, JurisdictionRuleDto, ResolvedLocationDto } from './jurisdiction.response.dto';
export { loadSeeds } from './seed-loader';
export { JurisdictionRuleStore } from './rule-store';
export { dataSummary } from './rule-views';
export { jurisdictionRulesProjector } from './read-model/jurisdiction-rules.projector';
export type { JurisdictionRuleChanged } from './jurisdiction.events';
