import { INTERNAL } from '../beta/internal';

export const ALPHA_INTERNAL = INTERNAL;
