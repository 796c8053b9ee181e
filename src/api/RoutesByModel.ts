/**
 * Model routes grouped by the list path they live under (`/api/<app>/<model>/`). The
 * router tests every route's pattern in turn, so one router holding the routes of a
 * hundred models spent more time matching a request than rendering a page of it. Here a
 * request goes straight to its model's handful of routes; a path under no model's list
 * path goes on to whatever comes next.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';

/** Where route declarations go: a koa Router, or the routes grouped by model. */
export interface RouteRegistry {
  get(path: string, handler: Middleware): unknown;
  post(path: string, handler: Middleware): unknown;
  put(path: string, handler: Middleware): unknown;
  patch(path: string, handler: Middleware): unknown;
  delete(path: string, handler: Middleware): unknown;
  options(path: string, handler: Middleware): unknown;
  all(path: string, handler: Middleware): unknown;
}

/** The first three segments of a path, as the key of a model's routes ('/api/dcim/devices/'), or null. */
function listPathOf(path: string): string | null {
  const third = nthSlash(path, 4);
  if (third < 0) {
    // '/api/dcim/devices' without its final slash still belongs to the model (a redirect or 404 follows).
    return nthSlash(path, 3) < 0 ? null : `${path}/`.toLowerCase();
  }
  return path.slice(0, third + 1).toLowerCase();
}

function nthSlash(path: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = path.indexOf('/', at + 1);
    if (at < 0) return -1;
  }
  return at;
}

export class RoutesByModel implements RouteRegistry {
  private readonly routers = new Map<string, Router>();

  private routerFor(path: string): Router {
    const key = listPathOf(path);
    if (!key || (path.indexOf(':') >= 0 && path.indexOf(':') < key.length)) {
      throw new Error(`RoutesByModel: ${path} does not start with a fixed /<api>/<app>/<model>/ path`);
    }
    let router = this.routers.get(key);
    if (!router) this.routers.set(key, (router = new Router()));
    return router;
  }

  get(path: string, handler: Middleware): this {
    this.routerFor(path).get(path, handler);
    return this;
  }
  post(path: string, handler: Middleware): this {
    this.routerFor(path).post(path, handler);
    return this;
  }
  put(path: string, handler: Middleware): this {
    this.routerFor(path).put(path, handler);
    return this;
  }
  patch(path: string, handler: Middleware): this {
    this.routerFor(path).patch(path, handler);
    return this;
  }
  delete(path: string, handler: Middleware): this {
    this.routerFor(path).delete(path, handler);
    return this;
  }
  options(path: string, handler: Middleware): this {
    this.routerFor(path).options(path, handler);
    return this;
  }
  all(path: string, handler: Middleware): this {
    this.routerFor(path).all(path, handler);
    return this;
  }

  /** The koa middleware: the request's model routes, else the next middleware. */
  routes(): Middleware {
    const dispatch = new Map<string, Middleware>();
    for (const [key, router] of this.routers) dispatch.set(key, router.routes() as unknown as Middleware);
    return (ctx, next) => {
      const key = listPathOf(ctx.path);
      const routes = key === null ? undefined : dispatch.get(key);
      return routes ? routes(ctx, next) : next();
    };
  }
}
