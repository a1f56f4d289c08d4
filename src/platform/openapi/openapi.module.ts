import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';
import { OpenApiDocument } from './openapi-document.provider';

/** `GET /openapi.json` and the browsable `GET /docs`, no key. */
@Module({
  controllers: [DocsController],
  providers: [OpenApiDocument],
})
export class OpenApiModule {}
