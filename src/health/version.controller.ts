import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../platform/identity/roles.decorator';
import { API_VERSION } from '../platform/openapi/openapi-document';
import { projectRoot } from '../platform/project-root';
import { RouteCatalog } from './route-catalog';
import { VersionReport } from './version.response.dto';

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
