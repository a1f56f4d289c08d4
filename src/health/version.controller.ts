import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../platform/identity/roles.decorator';
import { API_VERSION } from '../platform/openapi/openapi-document';
import { projectRoot } from '../platform/project-root';
import { Endpoint, RouteCatalog } from './route-catalog';


class VersionReport {
  @ApiProperty({ description: 'The version of the interface this service implements', example: API_VERSION })
  api_version: string;

  @ApiProperty({ description: "The service's own release", example: '0.1.0' })
  engine_version: string;

  @ApiProperty({ type: [Endpoint], description: 'Every route the router serves' })
  endpoints: Endpoint[];
}

@ApiTags('Health')
@Controller()
export class VersionController {
  private readonly engineVersion = readEngineVersion();

  constructor(private readonly routes: RouteCatalog) {}

  @Get('version')
  @Public()
  @ApiOperation({ operationId: 'getVersion', summary: 'The interface and engine versions, and every route served' })
  @ApiOkResponse({ type: VersionReport, description: 'The versions and the served routes' })
  version(): VersionReport {
    return { api_version: API_VERSION, engine_version: this.engineVersion, endpoints: this.routes.list() };
  }
}

function readEngineVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
