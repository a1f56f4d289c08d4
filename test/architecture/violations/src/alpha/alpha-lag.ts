import { REPLICA } from '../platform/read-replica/replica';

export const LAG = REPLICA;
