import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { HealthController } from './health.controller';
import { RouteCatalog } from './route-catalog';
import { VersionController } from './version.controller';

/** The open endpoints: `GET /health` and `GET /version`, no key. */
@Module({
  imports: [AuditModule],
  controllers: [HealthController, VersionController],
  providers: [RouteCatalog],
  exports: [RouteCatalog],
})
export class HealthModule {}
