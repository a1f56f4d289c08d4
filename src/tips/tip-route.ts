import { applyDecorators, Post } from '@nestjs/common';
import { Roles } from '../platform/identity/roles.decorator';
import { Idempotent } from '../platform/idempotency/idempotency.interceptor';
import { AppendsToLog } from '../platform/as-of-position';
import { MIN_POSITION_WAIT_MS } from '../platform/projections/log-position';

/** A tip operation: a point-of-sale write (merchant and partner keys, see docs/integrators.md, "Permissions") that takes an Idempotency-Key and appends to the log. */
export const TipPost = (path: string) =>
  applyDecorators(Post(path), Roles('merchant', 'partner'), Idempotent(), AppendsToLog());

/** A pool or an adjustment decides from the tips read model once it holds every entry before the request (readCaughtUp). */
export const TIPS_NOT_CAUGHT_UP = `The tips read model did not reach the log as it stood when the request came within ${MIN_POSITION_WAIT_MS / 1000} s; nothing was recorded. Retry after Retry-After`;
