import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { HealthController } from './health.controller';
import { HealthHandler } from './health.handler';
import { RouteCatalog } from './route-catalog';
import { VersionController } from './version.controller';
import { VersionHandler } from './version.handler';

/** The open endpoints: `GET /health` and `GET /version`, no key. */
@Module({
  imports: [AuditModule],
  controllers: [HealthController, VersionController],
  providers: [RouteCatalog, HealthHandler, VersionHandler],
  exports: [RouteCatalog],
})
export class HealthModule {}
