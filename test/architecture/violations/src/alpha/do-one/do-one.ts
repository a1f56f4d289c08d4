import { ALPHA } from '../alpha';
import { TWO } from '../do-two/do-two';
import { ROWS } from '../read-model/alpha-rows';

export const ONE = [ALPHA, TWO, ROWS];
