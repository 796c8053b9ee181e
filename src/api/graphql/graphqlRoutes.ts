/**
 * `/graphql/`: NetBox's GraphQL read API over the derived schema (schema.ts), as the
 * GraphQL-over-HTTP conventions say: POST `application/json` `{query, variables,
 * operationName}` or GET `?query=`; a request that cannot be run (no query, a syntax error,
 * an unknown field or argument, a variable of the wrong type, a bound passed) is 400 with
 * `errors` and no `data`; errors while running are 200 beside the `data` that could be
 * read. A browser asking for HTML gets GraphiQL; `/graphql/schema.graphql` (or `?sdl`) the
 * schema as SDL. `?as_of=` reads a past state as the REST views do.
 */
import Router from '@koa/router';
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  parse,
  printSchema,
  specifiedRules,
  validate,
} from 'graphql';
import type { Context } from 'koa';

import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors/requestErrors.js';
import type { ReadStore } from '../../projections/ReadStore.js';
import { ReadStoreUnavailableError } from '../../projections/ReadStoreUnavailableError.js';
import { NOT_AUTHENTICATED, principalOf } from '../permissions.js';
import type { Services } from '../Services.js';
import { nestingError } from './documentNesting.js';
import { GRAPHIQL_CSP, graphiqlAsset, graphiqlPage } from './graphiqlAssets.js';
import { checkLimits } from './limits.js';
import { pastStateFor } from './pastState.js';
import { RequestReads } from './RequestReads.js';
import { buildSchema } from './schema.js';

const ENDPOINT = '/graphql/';
const ASSETS = '/graphql/static/';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';
/** The most tokens a document may hold: parsing stops there. */
const MAX_TOKENS = 20_000;

interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

export function graphqlRoutes(services: Services): Router {
  const schema = buildSchema(services.registry);
  const sdl = printSchema(schema);
  const router = new Router();
  const endpoint = (ctx: Context) => answer(services, schema, ctx);
  router.get(['/graphql', ENDPOINT], (ctx) => {
    if (ctx.query.sdl !== undefined) return answerSdl(ctx, sdl);
    if (ctx.query.query === undefined && ctx.accepts('json', 'html') === 'html') return answerGraphiql(ctx);
    return endpoint(ctx);
  });
  router.post(['/graphql', ENDPOINT], endpoint);
  router.get('/graphql/schema.graphql', (ctx) => answerSdl(ctx, sdl));
  router.get(`${ASSETS}:file`, (ctx) => {
    const asset = graphiqlAsset(String(ctx.params.file));
    if (!asset) throw new NotFoundError();
    ctx.set('ETag', asset.etag);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = asset.type;
    ctx.body = asset.content;
  });
  router.all(['/graphql', ENDPOINT], (ctx) => {
    ctx.set('Allow', 'GET, POST, HEAD, OPTIONS');
    ctx.status = ctx.method === 'OPTIONS' ? 200 : 405;
    ctx.body = ctx.method === 'OPTIONS' ? {} : { detail: `Method "${ctx.method}" not allowed.` };
  });
  return router;
}

function answerSdl(ctx: Context, sdl: string) {
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Content-Disposition', 'inline; filename="schema.graphql"');
  ctx.body = sdl;
}

function answerGraphiql(ctx: Context) {
  ctx.set('Content-Security-Policy', GRAPHIQL_CSP);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = graphiqlPage(ENDPOINT, ASSETS);
}

function respond(ctx: Context, status: number, body: ExecutionResult | { errors: readonly GraphQLFormattedError[] }) {
  ctx.status = status;
  // The GraphQL-over-HTTP media type for clients that name it, plain JSON for the others.
  ctx.type = ctx.get('Accept').includes(GRAPHQL_RESPONSE) ? GRAPHQL_RESPONSE : 'application/json';
  ctx.body = JSON.stringify(body);
}

function requestError(ctx: Context, errors: readonly GraphQLError[] | string) {
  const list = typeof errors === 'string' ? [new GraphQLError(errors)] : errors;
  respond(ctx, 400, { errors: list.map((e) => e.toJSON()) });
}

async function answer(services: Services, schema: GraphQLSchema, ctx: Context): Promise<void> {
  if (services.config.loginRequired && !principalOf(ctx)) throw new PermissionDeniedError(NOT_AUTHENTICATED);
  const request = requestOf(ctx);
  if (typeof request === 'string') return requestError(ctx, request);
  const tooDeep = nestingError(request.query, MAX_TOKENS);
  if (tooDeep) return requestError(ctx, [tooDeep]);
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS });
  } catch (error) {
    if (error instanceof GraphQLError) return requestError(ctx, [error]);
    throw error;
  }
  const invalid = validate(schema, document, specifiedRules, { maxErrors: 20 });
  if (invalid.length) return requestError(ctx, invalid);
  const { graphql, maxPageSize } = services.config;
  const limited = checkLimits(schema, document, request.operationName, request.variables, { ...graphql, maxPageSize });
  if (limited.length) return requestError(ctx, limited);

  // Inside a branch, the branch's header chose the read models (its past state included).
  const past = ctx.state.branch ? null : await pastStateFor(services, ctx);
  if (past === 'answered') return;
  // the past state ?as_of= names, else the branch X-NetBox-Branch names, else main's read models
  const chosen = past ?? ctx.state.readStore ?? null;
  const store: ReadStore = chosen ?? services.store;
  const serializer = chosen ? services.serializer.using(chosen) : services.serializer;
  const reads = new RequestReads(ctx, services.config, services.registry, store, serializer, graphql.maxCost);
  const result = await execute({
    schema,
    document,
    variableValues: request.variables,
    operationName: request.operationName,
    contextValue: { services, reads },
  });
  const errors = result.errors?.map((error) => shown(services, ctx, error));
  // Nothing ran (no such operation, variables of the wrong type, a mutation): the request is
  // at fault. Every top-level field is nullable, so a run leaves `data` an object.
  if (result.data === undefined || result.data === null) {
    return respond(ctx, 400, { errors: errors ?? [] });
  }
  respond(ctx, 200, errors?.length ? { data: result.data, errors } : { data: result.data });
}

/** The request's query, variables and operation name, or what is wrong with them. */
function requestOf(ctx: Context): GraphqlRequest | string {
  let source: Record<string, unknown>;
  if (ctx.method === 'POST') {
    const body = ctx.state.body;
    if (!isObject(body)) return 'POST body must be a JSON object with a "query".';
    source = body as Record<string, unknown>;
  } else {
    const params = new URLSearchParams(ctx.querystring);
    source = { query: params.get('query') ?? undefined, operationName: params.get('operationName') ?? undefined };
    const variables = params.get('variables');
    if (variables !== null && variables !== '') {
      try {
        source.variables = JSON.parse(variables);
      } catch {
        return 'Variables are invalid JSON.';
      }
    }
  }
  const { query, variables, operationName } = source;
  if (typeof query !== 'string' || query.trim() === '') return 'Must provide query string.';
  if (variables !== undefined && variables !== null && !isObject(variables)) return 'Variables must be an object.';
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return 'operationName must be a string.';
  }
  return {
    query,
    variables: (variables as Record<string, unknown> | undefined) ?? null,
    operationName: (operationName as string | undefined) ?? null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * An error as the client sees it: the refusals of the REST path in their words (a filter's
 * 400, a 403), a store outage as the REST 503; anything else is logged and shown as an
 * internal error, never its message (which may name internals).
 */
function shown(services: Services, ctx: Context, error: GraphQLError): GraphQLFormattedError {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) return error.toJSON();
  if (original instanceof ReadStoreUnavailableError) throw original;
  let message: string;
  if (original instanceof ValidationError) message = validationMessage(original.body);
  else if (original instanceof PermissionDeniedError || original instanceof NotFoundError) message = original.message;
  else {
    services.logger({
      level: 'error',
      requestId: ctx.state.requestId,
      msg: 'graphql resolver failed',
      path: error.path,
      error: String(original.stack ?? original),
    });
    message = 'Internal server error.';
  }
  return new GraphQLError(message, { nodes: error.nodes, path: error.path }).toJSON();
}

export function validationMessage(body: unknown): string {
  const entries = Array.isArray(body)
    ? body.flatMap((b) => Object.entries(b as object))
    : Object.entries(body as object);
  const text = (messages: unknown) => (Array.isArray(messages) ? messages.join(' ') : String(messages));
  // a field's messages name it; those of the whole request (non_field_errors) stand alone
  return entries
    .map(([name, messages]) => (name === 'non_field_errors' ? text(messages) : `${name}: ${text(messages)}`))
    .join('; ');
}
