import { ApiProperty } from '@nestjs/swagger';

/** The `as_of_position` of an answer read from async projections (see `readAsOf` in src/platform/projections/runner.ts). */
export const AsOfPosition = () =>
  ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'The log position this answer is current as of: it is read from read models that follow the log asynchronously',
    example: 18_204,
  });
