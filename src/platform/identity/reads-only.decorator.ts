import { SetMetadata } from '@nestjs/common';

export const READS_ONLY_KEY = 'crcs:reads-only';

/**
 * Marks a POST that changes nothing (`POST /export`). Auditor keys are read-only: the guard lets
 * them past a method other than GET only on a route marked so, even if `@Roles` names them.
 */
export const ReadsOnly = () => SetMetadata(READS_ONLY_KEY, true);
