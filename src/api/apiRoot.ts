import Router from '@koa/router';
import type { Services } from './Services.js';

/** Applications NetBox clients expect under /api/, whether or not they hold models yet. */
const APPLICATIONS = ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization'];

/** /api/, /api/<app>/ and /api/status/: browsing the API from its root. */
export function apiRoot(services: Services, startedAt: Date): Router {
  const router = new Router();
  router.get('/api/', (ctx) => {
    ctx.body = Object.fromEntries(APPLICATIONS.map((app) => [app, `${ctx.state.baseUrl}/api/${app}/`]));
  });
  for (const app of APPLICATIONS) {
    router.get(`/api/${app}/`, (ctx) => {
      const models = services.registry.all().filter((d) => d.app === app);
      ctx.body = Object.fromEntries(models.map((d) => [d.path, `${ctx.state.baseUrl}/api/${app}/${d.path}/`]));
    });
  }
  router.get('/api/status/', async (ctx) => {
    const head = services.log.head();
    ctx.body = {
      'netbox-version': '3.4.10',
      'netledger-version': '0.1.0',
      'python-version': null,
      'node-version': process.versions.node,
      'django-version': null,
      'installed-apps': {},
      plugins: {},
      'rq-workers-running': 0,
      projector: { position: services.projector.position, head, lag: Math.max(0, head - services.projector.position) },
      'started-at': startedAt.toISOString(),
    };
  });
  return router;
}
