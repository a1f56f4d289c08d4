import { ONE } from './cycle-one';

export const TWO = (): number => (ONE.length > 0 ? 0 : 1);
