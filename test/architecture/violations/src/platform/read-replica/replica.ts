export const REPLICA = 'replica';
