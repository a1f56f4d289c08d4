export const ROWS = 'the feature read model';
