export const BETA = 'beta';
