import { TWO } from './cycle-two';

export const ONE = (): number => TWO() + 1;
