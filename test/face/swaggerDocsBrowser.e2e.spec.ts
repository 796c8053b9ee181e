/**
 * NetBox 3.4's /api/docs/ in a real browser (Debian's Chromium driven by playwright-core):
 * Swagger UI renders the Swagger 2.0 document. Skipped (with a message) where
 * /usr/bin/chromium is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { CHROMIUM, launchChromium, SHOTS, watchPage } from '../support/chromium.js';
import { startService } from '../support/startService.js';

if (!existsSync(CHROMIUM)) {
  test.skip(`/api/docs/ in Chromium (skipped: ${CHROMIUM} is not installed; apt-get install -y chromium)`, () => {});
} else {
  test('Swagger UI at /api/docs/ renders the Swagger 2.0 document from local assets, without errors', async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const browser = await launchChromium(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { problems, foreign } = watchPage(page, service.url);
    await page.goto(`${service.url}/api/docs/`);
    await page.locator('.swagger-ui .info .title', { hasText: 'netledger API' }).waitFor({ timeout: 30_000 });
    // Swagger UI shows a 2.0 document's base URL (host + basePath) under the title
    await page.locator('.swagger-ui .info .base-url', { hasText: '/api' }).waitFor();
    await page.locator('.opblock-tag', { hasText: 'dcim' }).first().waitFor();
    t.true((await page.locator('.opblock-tag').count()) >= 7);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'api-docs.png') });
    t.deepEqual(problems, []);
    t.deepEqual(foreign, [], 'everything is loaded from the service itself');
  });
}
