import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

export class Endpoint {
  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ description: 'As the router serves it, with the /api/v1 prefix', example: '/api/v1/transaction' })
  path: string;
}

/** The routes the HTTP router really serves, recorded as they are registered (see `createApp`). */
@Injectable()
export class RouteCatalog {
  private readonly routes = new Map<string, Endpoint>();

  /**
   * `path` in the router's syntax; listed in the spec's (`/transaction/:id` becomes `/transaction/{id}`,
   * a trailing wildcard `{path}`, as the OpenAPI document names it: `/log/tile/*` is `/log/tile/{path}`).
   */
  record(method: string | string[], routerPath: string): void {
    const path = routerPath.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');
    for (const one of [method].flat()) this.routes.set(`${one} ${path}`, { method: one, path });
  }

  /** Sorted by path, then method. Fastify adds a HEAD route beside each GET; only the GET is listed. */
  list(): Endpoint[] {
    return [...this.routes.values()]
      .filter(({ method, path }) => !(method === 'HEAD' && this.routes.has(`GET ${path}`)))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }
}
