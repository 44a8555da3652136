import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './sessions.ts';

/** Where the document is served, and the page that browses it. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** The security scheme a signed-in route names (the session cookie). */
export const SESSION_SCHEME = 'session';

/** The product's version: the root package.json's. */
function productVersion(): string {
  const file = new URL('../../../package.json', import.meta.url);
  const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: string };
  return version ?? '0.0.0';
}

/** The API's paths; the pages (robots.txt, the sitemap, the web app's files) are not its. */
function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/media/');
}

/** /api/streams/:name/shop -> 'streams': the operations are grouped by their path's first part. */
function tagOf(url: string): string {
  const [first = '', second] = url.split('/').filter(Boolean);
  return first === 'api' && second ? second : first;
}

/** Drops the component schemas nothing refers to (as the Error schema's input twin: no request has it). */
function withoutUnusedSchemas(document: ReturnType<typeof jsonSchemaTransformObject>) {
  const schemas = 'components' in document ? document.components?.schemas : undefined;
  if (!schemas) return document;
  for (const name of Object.keys(schemas)) {
    const rest = JSON.stringify({ ...document, components: { schemas: { ...schemas, [name]: undefined } } });
    if (!rest.includes(`"#/components/schemas/${name}"`)) Reflect.deleteProperty(schemas, name);
  }
  return document;
}

/**
 * The OpenAPI 3.1 document, made from the routes' zod schemas (they stay the one source): served
 * at GET /api/openapi.json, browsable with Swagger UI at /api/docs (its files come from the npm
 * package and load under the site's CSP). Registered before the modules, whose routes its onRoute
 * hook collects. A route with `config: SIGNED_IN` names the session cookie as its security. The
 * document holds the routes under /api/ and /media/ (those without schemas, as the media files,
 * plainly); WebSockets (@fastify/websocket hides them), static files and the pages stay out.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config) {
  // Every error answer is one schema: a component the operations refer to, not a copy in each.
  if (!z.globalRegistry.has(errorBodySchema)) z.globalRegistry.add(errorBodySchema, { id: 'Error' });
  const zodTransform = createJsonSchemaTransform({});
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'StreamShop API',
        version: productVersion(),
        description:
          'JSON over HTTP; the session cookie carries the session. docs/api.md says what each route answers, and who may call it.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: config.publicUrl.startsWith('https:') ? SECURE_SESSION_COOKIE : SESSION_COOKIE,
            description: 'Set by sign-in and sign-up (HttpOnly); a signed-in route answers 401 without it.',
          },
        },
      },
    },
    transform(document) {
      if (!isApiPath(document.url)) return { schema: { hide: true }, url: document.url };
      const { schema, url } = zodTransform(document);
      if ((schema as { hide?: boolean } | undefined)?.hide) return { schema, url };
      const signedIn = document.route.config?.signedIn === true;
      return {
        schema: {
          tags: [tagOf(url)],
          ...schema,
          ...(signedIn ? { security: [{ [SESSION_SCHEME]: [] }] } : {}),
        },
        url,
      };
    },
    transformObject: (documentObject) => withoutUnusedSchemas(jsonSchemaTransformObject(documentObject)),
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );

  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // No call to validator.swagger.io: nothing leaves the site.
    validatorUrl: false,
    theme: { title: 'StreamShop API' },
  });
}
