import { Controller, Get, Header, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../platform/identity/roles.decorator';
import { HealthQuery } from './health.query';
import { HealthReport } from './health.response.dto';

@ApiTags('Health')
@Controller()
export class HealthController {
  constructor(private readonly queries: QueryBus) {}

  /** 503 when degraded, so a load balancer takes the instance out of rotation. */
  @Get('health')
  @Public()
  @ApiOperation({
    operationId: 'getHealth',
    summary: 'Liveness and readiness, with what the service enforces and which data it holds',
  })
  @ApiOkResponse({ type: HealthReport, description: 'Healthy: the database answers and the chain head is readable' })
  @ApiServiceUnavailableResponse({
    type: HealthReport,
    description: 'Degraded: the database or the chain head cannot be read, or the signer refused',
  })
  @Header('Cache-Control', 'no-store')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.queries.execute(new HealthQuery());
    void reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
