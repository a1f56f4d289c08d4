import { Query } from '@nestjs/cqrs';
import { VersionReport } from './version.response.dto';

export class VersionQuery extends Query<VersionReport> {}
