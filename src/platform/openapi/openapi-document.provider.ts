import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the document `createApp` builds once the app's routes are known, for the docs controller to serve. */
@Injectable()
export class OpenApiDocument {
  private document?: OpenAPIObject;

  publish(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (!this.document) throw new Error('the OpenAPI document is published by createApp');
    return this.document;
  }
}
