/**
 * The browsable API in a real browser: Debian's Chromium driven by playwright-core.
 * Skipped (with a message) where /usr/bin/chromium is not installed. The screenshot is
 * kept as test/face/screenshots/*.png (git-ignored) for a person to look at.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { CHROMIUM, launchChromium, SHOTS, watchPage } from '../support/chromium.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

if (!existsSync(CHROMIUM)) {
  test.skip(`browsable API in Chromium (skipped: ${CHROMIUM} is not installed; apt-get install -y chromium)`, () => {});
} else {
  test('a browser opens /api/dcim/sites/, follows the link to a site, sends a PATCH from the form, takes a screenshot', async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const region = await service.api('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    await service.api('POST', '/api/dcim/sites/', {
      name: 'DC-1',
      slug: 'dc-1',
      region: region.body.id,
      description: '<b>not bold</b>',
    });
    await service.api('POST', '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });

    const browser = await launchChromium(t);
    const context = await browser.newContext({
      extraHTTPHeaders: { Authorization: `Token ${ADMIN_TOKEN}` },
      viewport: { width: 1280, height: 1100 },
    });
    const page = await context.newPage();
    const { problems } = watchPage(page, service.url);

    const response = await page.goto(`${service.url}/api/dcim/sites/`);
    t.is(response?.status(), 200);
    t.is(await page.title(), 'Site List – netledger REST API');
    t.is(await page.locator('.breadcrumb .active').innerText(), 'Sites');
    // the stylesheet applied (served locally under a strict CSP)
    t.is(await page.locator('.navbar').evaluate((el) => getComputedStyle(el).display), 'flex');

    await page.locator('#response-body a', { hasText: '/api/dcim/sites/1/' }).first().click();
    await page.waitForURL(`${service.url}/api/dcim/sites/1/`);
    t.is(await page.locator('h1').innerText(), 'Site: DC-1');
    t.is(await page.locator('#response-body b').count(), 0, 'HTML in data is shown as text');
    t.true((await page.locator('#response-body').innerText()).includes('"description": "<b>not bold</b>"'));
    mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, 'site-detail.png');
    await page.screenshot({ path: file });
    t.true(existsSync(file));

    // the form sends JSON with fetch and shows the answer as text
    await page.locator('select[name="method"]').selectOption('PATCH');
    await page.locator('textarea[name="content"]').fill('{"description": "edited in a browser"}');
    await page.locator('#request-form button[type="submit"]').click();
    await page.locator('#request-result', { hasText: 'HTTP 200' }).waitFor();
    t.true((await page.locator('#request-result').innerText()).includes('"description": "edited in a browser"'));
    const site = await service.api('GET', '/api/dcim/sites/1/');
    t.is(site.body.description, 'edited in a browser');

    await page.locator('#request-result').screenshot({ path: path.join(SHOTS, 'site-patched.png') });
    t.deepEqual(problems, []);
  });

  test('Swagger UI renders the schema in a browser from local assets, under its CSP, without errors', async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const browser = await launchChromium(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const { problems, foreign } = watchPage(page, service.url);
    await page.goto(`${service.url}/api/schema/swagger-ui/`);
    await page.locator('.swagger-ui .info .title', { hasText: 'netledger API' }).waitFor({ timeout: 30_000 });
    await page.locator('.opblock-tag', { hasText: 'dcim' }).first().waitFor();
    t.true((await page.locator('.opblock-tag').count()) >= 7);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'swagger-ui.png') });
    t.deepEqual(problems, []);
    t.deepEqual(foreign, [], 'everything is loaded from the service itself');
  });

  test('a person logs in with the session form, browses and writes through the page (CSRF cookie sent back)', async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const browser = await launchChromium(t);
    const page = await browser.newPage();
    await page.goto(`${service.url}/api/dcim/sites/`);
    t.regex(await page.locator('#response-body').innerText(), /Authentication credentials were not provided/);
    await page.locator('.navbar a', { hasText: 'Log in' }).click();
    await page.locator('#username').fill('admin');
    await page.locator('#password').fill('admin-password');
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${service.url}/api/dcim/sites/`);
    t.is(await page.locator('.navbar .user').innerText(), 'admin');
    await page.locator('textarea[name="content"]').fill('{"name": "From the browser", "slug": "from-the-browser"}');
    await page.locator('#request-form button[type="submit"]').click();
    await page.locator('#request-result', { hasText: 'HTTP 201' }).waitFor();
    const sites = await service.api('GET', '/api/dcim/sites/?slug=from-the-browser');
    t.is(sites.body.count, 1);
    t.is(sites.body.results[0].name, 'From the browser');
  });
}
