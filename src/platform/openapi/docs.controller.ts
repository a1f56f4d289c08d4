import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../identity/roles.decorator';
import { DomainError } from '../errors/domain-error';
import { ApiErrors } from './api-errors.decorator';
import { OpenApiDocument } from './openapi-document.provider';

/**
 * Swagger UI may run only its own files from here and call only this service; it sets styles
 * inline and draws icons from data: URLs, so those are allowed. The page holds no key of its own:
 * one typed into "Authorize" lives in the page's memory.
 */
const DOCS_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** Relative URLs: the page is `/api/v1/docs`, so they resolve to `/api/v1/docs/…` and `/api/v1/openapi.json`. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cash Rounding Compliance Service: API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/** validatorUrl null: Swagger UI would otherwise send the document to an outside validator. */
const INIT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const ASSET_NAMES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'];

interface Asset {
  type: string;
  body: string | Buffer;
}

/** Read once at start from the swagger-ui-dist package, and served from memory like the portal. */
function loadAssets(): Map<string, Asset> {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  return new Map<string, Asset>([
    ['swagger-ui.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(dist, 'swagger-ui.css')) }],
    [
      'swagger-ui-bundle.js',
      { type: 'text/javascript; charset=utf-8', body: readFileSync(join(dist, 'swagger-ui-bundle.js')) },
    ],
    ['init.js', { type: 'text/javascript; charset=utf-8', body: INIT }],
  ]);
}

@ApiTags('Documentation')
@Controller()
export class DocsController {
  private readonly assets = loadAssets();

  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  @Public()
  @ApiOperation({ operationId: 'getOpenApiDocument', summary: 'This OpenAPI 3.1 document' })
  @ApiOkResponse({
    description: 'The OpenAPI 3.1 document of every route',
    schema: { type: 'object', example: { openapi: '3.1.0' } },
  })
  openApi(): OpenAPIObject {
    return this.document.get();
  }

  @Get('docs')
  @Public()
  @ApiOperation({ operationId: 'getDocsPage', summary: 'Browsable API documentation (Swagger UI)' })
  @ApiProduces('text/html')
  @ApiOkResponse({
    description: 'The page; it loads its scripts from /api/v1/docs/ and the document from /api/v1/openapi.json',
    schema: { type: 'string', example: '<!doctype html>' },
  })
  page(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.headers({ ...DOCS_SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8' });
    return PAGE;
  }

  @Get('docs/:asset')
  @Public()
  @ApiOperation({ operationId: 'getDocsAsset', summary: "The docs page's own scripts and styles" })
  @ApiParam({ name: 'asset', enum: ASSET_NAMES, description: 'A file the page loads' })
  @ApiProduces('text/javascript', 'text/css')
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', example: 'window.ui = SwaggerUIBundle({…});' } })
  @ApiErrors({ 404: { NOT_FOUND: 'No such file' } })
  asset(@Param('asset') name: string, @Res({ passthrough: true }) reply: FastifyReply): string | Buffer {
    const asset = this.assets.get(name);
    if (!asset) throw new DomainError('NOT_FOUND', `No documentation file ${name}`, 404);
    void reply.headers({ ...DOCS_SECURITY_HEADERS, 'content-type': asset.type });
    return asset.body;
  }
}
