import { ApiProperty } from '@nestjs/swagger';

export const HELPER = ApiProperty;
