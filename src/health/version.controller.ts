import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../platform/identity/roles.decorator';
import { VersionQuery } from './version.query';
import { VersionReport } from './version.response.dto';

@ApiTags('Health')
@Controller()
export class VersionController {
  constructor(private readonly queries: QueryBus) {}

  @Get('version')
  @Public()
  @ApiOperation({ operationId: 'getVersion', summary: 'The interface and engine versions, and every route served' })
  @ApiOkResponse({ type: VersionReport, description: 'The versions and the served routes' })
  version(): Promise<VersionReport> {
    return this.queries.execute(new VersionQuery());
  }
}
