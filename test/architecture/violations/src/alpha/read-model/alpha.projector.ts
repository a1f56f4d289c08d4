import { LAG } from '../alpha-lag';

export const WRITES_TO = LAG;
