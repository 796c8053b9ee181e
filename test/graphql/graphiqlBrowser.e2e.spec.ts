/**
 * GraphiQL at /graphql/ in a real browser (Debian's Chromium driven by playwright-core):
 * it loads from the service alone, runs a query and its docs pane shows the derived schema
 * (introspection), with every request to another origin refused. Skipped (with a
 * message) where /usr/bin/chromium is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { CHROMIUM, launchChromium, SHOTS, watchPage } from '../support/chromium.js';
import { startService } from '../support/startService.js';

if (!existsSync(CHROMIUM)) {
  test.skip(`GraphiQL in Chromium (skipped: ${CHROMIUM} is not installed; apt-get install -y chromium)`, () => {});
} else {
  test('GraphiQL runs a query and shows the schema in its docs pane, from local assets only', async (t) => {
    t.timeout(90_000);
    const service = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
    t.teardown(() => service.close());
    await service.api('POST', '/api/dcim/sites/', { name: 'Browser site', slug: 'browser-site' });
    const browser = await launchChromium(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { problems, foreign } = watchPage(page, service.url);
    // offline but for the service: anything from elsewhere would fail to load
    await page.route('**/*', (route) =>
      route.request().url().startsWith(service.url) ? route.continue() : route.abort('internetdisconnected'),
    );
    await page.goto(`${service.url}/graphql/`);
    await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });

    // run a query: the answer comes from the service (an anonymous reader of exempt sites)
    const answer = await page.evaluate(async () => {
      const response = await fetch('/graphql/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ site_list { name } }' }),
      });
      return response.json();
    });
    t.deepEqual(answer, { data: { site_list: [{ name: 'Browser site' }] } });

    // the docs pane lists the root type's fields, from introspection
    await page.locator('button[aria-label="Show Documentation Explorer"]').click();
    await page.locator('.graphiql-doc-explorer', { hasText: 'Query' }).waitFor({ timeout: 30_000 });
    await page.locator('.graphiql-doc-explorer a', { hasText: 'Query' }).first().click();
    await page.locator('.graphiql-doc-explorer', { hasText: 'site_list' }).waitFor({ timeout: 30_000 });
    // a type's page: its fields, reverse relations under NetBox's names included
    await page
      .locator('.graphiql-doc-explorer a', { hasText: /^SiteType$/ })
      .first()
      .click();
    await page.locator('.graphiql-doc-explorer-title', { hasText: 'SiteType' }).waitFor({ timeout: 30_000 });
    await page.locator('.graphiql-doc-explorer', { hasText: 'powerpanel_set' }).waitFor({ timeout: 30_000 });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'graphiql.png') });
    t.deepEqual(problems, []);
    t.deepEqual(foreign, [], 'everything is loaded from the service itself');
  });
}
