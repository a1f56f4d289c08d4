import { SetMetadata } from '@nestjs/common';

export const ROLES = ['merchant', 'auditor', 'admin', 'partner'] as const;
export type Role = (typeof ROLES)[number];

export const ROLES_KEY = 'crcs:roles';
export const PUBLIC_KEY = 'crcs:public';

/** The roles that may call a route. Every route names its roles or is `@Public()`: the permission matrix is these decorators. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Open to callers without a key (`/health`, `/version`). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);
