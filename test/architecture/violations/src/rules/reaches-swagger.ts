import { HELPER } from '../platform/swagger-helper';

export const REACHED = HELPER;
