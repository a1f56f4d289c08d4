import { BETA } from '../beta';

export const RULE_OF_A_FEATURE = BETA;
