import { ApiExtension } from '@nestjs/swagger';

/** Where an operation of the OpenAPI document says that its answer may be read from the replica. */
export const READ_REPLICA_EXTENSION = 'x-read-replica';

/**
 * On the route of a query of the app's replica list: the document gives its success answers the
 * `X-Data-As-Of` header (src/platform/openapi/openapi-document.ts). The replica e2e suite holds the
 * routes so marked to the ones that send it.
 */
export const ApiDataAsOf = () => ApiExtension(READ_REPLICA_EXTENSION, true);
