import { ALPHA } from '../alpha/alpha';

export const PLATFORM = ALPHA;
