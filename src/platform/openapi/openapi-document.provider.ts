import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Holds how to build the document once the app's routes are known (`createApp`), for the docs
 * controller to serve. Built on the first request for it, not at start: scanning every route's
 * metadata was about a twentieth of the service's start.
 */
@Injectable()
export class OpenApiDocument {
  private build?: () => OpenAPIObject;
  private document?: OpenAPIObject;

  publish(build: () => OpenAPIObject): void {
    this.build = build;
  }

  get(): OpenAPIObject {
    if (!this.build) throw new Error('the OpenAPI document is published by createApp');
    this.document ??= this.build();
    return this.document;
  }
}
