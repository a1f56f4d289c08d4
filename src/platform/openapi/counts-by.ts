import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/**
 * The OpenAPI class of a `Record<K, number>` whose keys are a const array of the code (reasons,
 * risk levels): one required integer property per key, so the document lists exactly the keys the
 * code counts by, from the same array.
 */
export function countsBy<K extends string>(
  name: string,
  keys: readonly K[],
  examples: Partial<Record<K, number>> = {},
): Type<Record<K, number>> {
  const counts = { [name]: class {} }[name];
  for (const key of keys)
    ApiProperty({ type: 'integer', minimum: 0, example: examples[key] ?? 0 })(counts.prototype, key);
  return counts as Type<Record<K, number>>;
}
