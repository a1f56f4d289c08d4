import { jurisdictionRulesProjector } from './jurisdiction-rules/jurisdiction-rules.projector';
import { apiKeysProjector } from './api-keys/api-keys.projector';
import { merchantsProjector } from './merchants/merchants.projector';
import type { Projector } from './projector';
import { transactionListProjector } from './transaction-list/transaction-list.projector';

/** Every read model of the service, in one place: the store, the async runner and the rebuild script read this list. */
export const PROJECTORS: readonly Projector[] = [jurisdictionRulesProjector, apiKeysProjector, merchantsProjector, transactionListProjector];
