import { applyDecorators, Post } from '@nestjs/common';
import { Roles } from '../platform/identity/roles.decorator';
import { Idempotent } from '../platform/idempotency/idempotency.interceptor';
import { AppendsToLog } from '../platform/as-of-position';

/** A tip operation: a point-of-sale write (merchant and partner keys, see docs/integrators.md, "Permissions") that takes an Idempotency-Key and appends to the log. */
export const TipPost = (path: string) =>
  applyDecorators(Post(path), Roles('merchant', 'partner'), Idempotent(), AppendsToLog());

