import { VERIFIER } from '../verification/verifier';

export const EVENT_STORE = VERIFIER;
