import { ApiProperty } from '@nestjs/swagger';
import { API_VERSION } from '../platform/openapi/openapi-document';
import { Endpoint } from './route-catalog';

export class VersionReport {
  @ApiProperty({ description: 'The version of the interface this service implements', example: API_VERSION })
  api_version: string;

  @ApiProperty({ description: "The service's own release", example: '0.1.0' })
  engine_version: string;

  @ApiProperty({ type: [Endpoint], description: 'Every route the router serves' })
  endpoints: Endpoint[];
}
