import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Role } from './principal';

export const ROLES_KEY = 'crcs:roles';
export const PUBLIC_KEY = 'crcs:public';
export const LOG_PUBLIC_KEY = 'crcs:log-public';

/** The OpenAPI security scheme of the `x-api-key` header (declared in src/platform/openapi/openapi-document.ts). */
export const API_KEY_SCHEME = 'api_key';

/** Where an operation of the OpenAPI document lists the roles that may call it. */
export const ROLES_EXTENSION = 'x-roles';

/**
 * The roles that may call a route. Every route names its roles or is `@Public()`: the permission
 * matrix is these decorators, and the OpenAPI document shows them as they are enforced.
 */
export const Roles = (...roles: Role[]) =>
  applyDecorators(SetMetadata(ROLES_KEY, roles), ApiSecurity(API_KEY_SCHEME), ApiExtension(ROLES_EXTENSION, roles));

/** Open to callers without a key (`/health`, `/version`). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The transparency log's resources: open to callers without a key when LOG_PUBLIC=true (monitors and witnesses poll them). */
export const PublicWhenLogPublic = () => SetMetadata(LOG_PUBLIC_KEY, true);
