import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Max, Min } from 'class-validator';
import { MIN_POSITION_WAIT_MS } from './projections/log-position';
import { QueryInteger } from './query-integer';

/** The `as_of_position` of an answer read from async projections (see `readAsOf` in src/platform/projections/log-position.ts). */
export const AsOfPosition = () =>
  ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'The log position this answer is current as of: it is read from read models that follow the log asynchronously',
    example: 18_204,
  });

/**
 * The `min_position` query parameter of a read from read models that follow the log after the
 * append (lists, analytics, exports): the document gives the routes that take it the X-Log-Position
 * header and the 503 LOG_POSITION_NOT_REACHED with Retry-After (src/platform/openapi/openapi-document.ts).
 */
export const MinPosition = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        `Read what the log holds up to this position at least (e.g. the \`chain_position\` of a write): waits up to ${MIN_POSITION_WAIT_MS / 1000} s ` +
        'for the read models of the answer to reach it, else 503 `LOG_POSITION_NOT_REACHED` with Retry-After. ' +
        'The position the answer reflects is in its X-Log-Position header',
      example: 18_204,
    }),
    IsOptional(),
    QueryInteger(),
    Min(0),
    Max(Number.MAX_SAFE_INTEGER),
  );

/** A read that takes nothing but `min_position`. */
export class MinPositionRequest {
  @MinPosition()
  min_position?: number;
}

/** Where an operation of the OpenAPI document says that it appends to the log; the document takes the mark off once read. */
export const APPENDS_EXTENSION = 'x-appends-to-log';

/**
 * On the route of a command that writes through CommandStep: its success answers carry X-Log-Position,
 * the position of the last entry it appended (src/platform/command-step.ts), which the document
 * gives them (src/platform/openapi/openapi-document.ts).
 */
export const AppendsToLog = () => ApiExtension(APPENDS_EXTENSION, true);
