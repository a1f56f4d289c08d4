import { Module, RequestMethod, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AnswerContextInterceptor } from './platform/answer-context';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/audit.module';
import { AuthGuard } from './platform/identity/auth.guard';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './platform/config/config';
import { EventStoreModule } from './platform/event-store/event-store.module';
import { ExportModule } from './export/export.module';
import { RiskModule } from './risk/risk.module';
import { ENFORCED_RULES } from './health/enforced-rules';
import { HealthModule } from './health/health.module';
import { JurisdictionModule } from './jurisdiction/jurisdiction.module';
import { MerchantsModule } from './merchants/merchants.module';
import { PROJECTORS } from './projectors';
import { ReadReplicaModule } from './platform/read-replica/read-replica.module';
import { REPLICA_QUERIES } from './replica-queries';
import { OpenApiModule } from './platform/openapi/openapi.module';
import { ENFORCED_ROUNDING_RULES } from './rules/rounding-engine';
import { TipsModule } from './tips/tips.module';
import { TransactionsModule } from './transactions/transactions.module';
import { writerKey } from '@crcs/tlog';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Every feature of the service; add a new feature module here. */
const FEATURE_MODULES = [
  HealthModule,
  AuthModule,
  MerchantsModule,
  JurisdictionModule,
  TransactionsModule,
  TipsModule,
  AuditModule,
  ExportModule,
  RiskModule,
  WebhooksModule,
  OpenApiModule,
];

@Module({})
export class AppModule {
  /** Global, so that any module can inject `AppConfig` and `ENFORCED_RULES`. */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot({
          // Nest puts the global prefix before this path: a request outside /api/v1 gets its 404
          // without an access log line.
          forRoutes: [{ path: '/{*path}', method: RequestMethod.ALL }],
          pinoHttp: {
            level: config.logLevel,
            // Lines logged during a request carry its reqId; only the completion line adds the request and response.
            quietReqLogger: true,
            customLogLevel: (_request, response, error) =>
              error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
            redact: {
              paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
              censor: '[redacted]',
            },
          },
        }),
        CqrsModule.forRoot(),
        EventStoreModule.forRoot({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          projectors: PROJECTORS,
          writerKey: config.checkpointSigningKey && writerKey(config.checkpointSigningKey),
          logOrigin: config.logOrigin,
        }),
        ReadReplicaModule.forRoot({
          url: config.readDatabaseUrl,
          maxLagMs: config.readMaxLagMs,
          queries: REPLICA_QUERIES,
        }),
        ...FEATURE_MODULES,
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        // Every route of every module passes the guard: a route without @Roles or @Public is closed.
        { provide: APP_GUARD, useExisting: AuthGuard },
        // Reads say on their answer how current they are (X-Data-As-Of, X-Log-Position).
        { provide: APP_INTERCEPTOR, useClass: AnswerContextInterceptor },
        { provide: ENFORCED_RULES, useValue: ENFORCED_ROUNDING_RULES },
      ],
      exports: [AppConfig, ENFORCED_RULES],
    };
  }
}
