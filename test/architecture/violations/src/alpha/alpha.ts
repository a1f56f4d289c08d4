import { BETA } from '../beta';

export const ALPHA = BETA;
