import { BETA } from '../beta/beta.events';

export const RULE_OF_A_FEATURE = BETA;
