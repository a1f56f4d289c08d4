import { BETA } from '../beta/beta.events';

export const ALPHA = BETA;
