import { Query } from '@nestjs/cqrs';
import { HealthReport } from './health.response.dto';

export class HealthQuery extends Query<HealthReport> {}
