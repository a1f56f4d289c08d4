import { REPLICA } from '../../platform/read-replica/replica';

export const WRITES_TO = REPLICA;
