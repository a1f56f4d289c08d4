import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/roles.decorator';
import { Endpoint, RouteCatalog } from './route-catalog';

/** The version of the interface (spec/interface-spec.md), distinct from the engine's own release version. */
export const API_VERSION = '3.6.0';

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

/** The nearest package.json above this file: the project root both from `src/` (ts-jest) and from `dist/src/`. */
function readEngineVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}
