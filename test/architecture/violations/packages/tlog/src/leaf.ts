export const LEAF = 'leaf';
