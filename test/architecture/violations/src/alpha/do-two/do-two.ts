export const TWO = 'a sibling use case';
