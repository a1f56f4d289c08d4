import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class VerifyHashChainRequest {
  /** Default 1: the whole chain from genesis. Later, the range trusts the prev_hash of its first entry. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  from_position: number = 1;

  /** Default, or beyond the head: up to the head as it stands when the request starts. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  to_position?: number;
}
