import Koa from 'koa';

import { captureAnswers } from './answerCache/captureAnswers.js';
import { apiRoot } from './apiRoot.js';
import { auditApi } from './audit/auditApi.js';
import { authRoutes } from './auth/routes.js';
import { branchChangesRoute } from './branches/branchChangesRoute.js';
import { branchHeader } from './branches/branchHeader.js';
import { branchRoutes } from './branches/branchRoutes.js';
import { connectedDeviceRoute } from './connectedDeviceRoute.js';
import { contentTypesRoute } from './extras/contentTypesRoute.js';
import { imageAttachmentRoutes } from './extras/imageAttachmentRoutes.js';
import { imageFieldRoutes } from './extras/imageFieldRoutes.js';
import { reportsScriptsRoute } from './extras/reportsScriptsRoute.js';
import { faceMiddleware, negotiationGuard, routeOf } from './face/respond.js';
import { faceRoutes } from './face/routes.js';
import { graphqlBodyErrors } from './graphql/graphqlBodyErrors.js';
import { graphqlRoutes } from './graphql/graphqlRoutes.js';
import type {} from './LedgerState.js'; // types ctx.state
import { authenticate } from './middleware/authenticate.js';
import { errorResponses } from './middleware/errorResponses.js';
import { idempotency } from './middleware/idempotency.js';
import { readJsonBody } from './middleware/readJsonBody.js';
import { replicaMiddleware } from './middleware/replicaMiddleware.js';
import { appendSlash, requestContext } from './middleware/requestContext.js';
import { strictQueryString } from './middleware/strictUtf8.js';
import { webhookHop } from './middleware/webhookHop.js';
import { modelRoutes } from './modelRoutes.js';
import type { Services } from './Services.js';
import { userConfigRoute } from './users/userConfigRoute.js';

/** The HTTP face: middleware in the order a request meets it, then the generated routes. */
export function createApp(services: Services): Koa {
  const app = new Koa();
  // outermost: keeps finished answers to plain reads for the lean path in front of the chain (main.ts)
  const answers = services.answers;
  if (answers)
    app.use(
      captureAnswers(
        answers,
        () => services.projector.position,
        () => services.log.head(),
        routeOf,
      ),
    );
  app.use(
    requestContext(services.config.apiVersion, (ctx) => {
      const proxy = services.auth.trustsPeer(ctx.req.socket.remoteAddress);
      return { proto: proxy, host: proxy && services.config.useForwardedHost };
    }),
  );
  // outside the error mapper and the renderer, so the line carries the status the client got
  app.use(requestLog(services));
  // log positions on every answer, read-your-writes waits; on a read replica, writes to the writer
  for (const middleware of replicaMiddleware(services)) app.use(middleware);
  // JSON/indent/browsable rendering of every body, metrics
  app.use(faceMiddleware(services));
  app.use(errorResponses(services.logger));
  app.use(strictQueryString);
  app.use(appendSlash);
  app.use(negotiationGuard); // ?format= / Accept no renderer satisfies: 404 / 406 before any view
  app.use(authenticate(services));
  app.use(webhookHop(services.config.secretKey)); // a webhook delivery's writes: their events name its depth
  // X-NetBox-Branch: the request reads and writes inside that branch (400 if it names no open branch)
  app.use(branchHeader(services));
  app.use(authRoutes(services).routes()); // token provisioning, /login/, /logout/ (read their own bodies)
  app.use(imageAttachmentRoutes(services).routes()); // multipart image uploads (read their own bodies), uploaded files
  app.use(imageFieldRoutes(services).routes()); // multipart writes of models with image fields, their files
  const { maxBodyBytes, bodyTimeoutMs, maxBulkItems } = services.config;
  app.use(graphqlBodyErrors); // /graphql/: the JSON reader's refusals as GraphQL errors
  app.use(readJsonBody({ maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs, maxItems: maxBulkItems }));
  const audit = services.audit;
  app.use(idempotency(audit ? (userId, key) => audit.idempotentRequest(userId, key) : null));
  const root = apiRoot(services, new Date());
  const models = modelRoutes(services);
  // OPTIONS metadata (before the model routes' catch-all), schema, docs, metrics, health
  app.use(faceRoutes(services));
  app.use(root.routes());
  app.use(connectedDeviceRoute(services).routes());
  app.use(userConfigRoute(services).routes());
  app.use(contentTypesRoute(services).routes());
  app.use(reportsScriptsRoute(services).routes());
  if (services.branches) app.use(branchRoutes(services, services.branches).routes()); // /api/plugins/branching/
  if (services.audit && services.branches)
    app.use(branchChangesRoute(services, services.branches, services.audit).routes()); // a branch's own changes
  if (services.audit) app.use(auditApi(services, services.audit)); // object changes, history, revert, ?as_of= (from the event log)
  app.use(graphqlRoutes(services).routes()); // /graphql/: the read API as NetBox's GraphQL, derived from the registry
  app.use(models.routes());
  return app;
}

/** One structured line per request; never the Authorization header or a body. */
function requestLog(services: Services) {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      services.logger({
        level: 'info',
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        user: ctx.state.eventUser?.username ?? null,
        ms: Math.round((performance.now() - started) * 100) / 100,
      });
    }
  };
}
