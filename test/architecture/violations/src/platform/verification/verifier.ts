export const VERIFIER = 'verifies the chain';
