import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { API_VERSION } from '../platform/openapi/openapi-document';
import { projectRoot } from '../platform/project-root';
import { RouteCatalog } from './route-catalog';
import { VersionQuery } from './version.query';
import type { VersionReport } from './version.response.dto';

@QueryHandler(VersionQuery)
export class VersionHandler implements IQueryHandler<VersionQuery, VersionReport> {
  private readonly engineVersion = readEngineVersion();

  constructor(private readonly routes: RouteCatalog) {}

  async execute(): Promise<VersionReport> {
    return { api_version: API_VERSION, engine_version: this.engineVersion, endpoints: this.routes.list() };
  }
}

function readEngineVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
