export const INTERNAL = 'beta internal';
