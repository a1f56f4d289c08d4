import { DO_IT } from '../beta/do-it/do-it.handler';

export const ALPHA_INTERNAL = DO_IT;
