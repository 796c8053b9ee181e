/**
 * Debian's Chromium driven by playwright-core, for the tests that open pages in a real
 * browser: where it is, where screenshots go, a headless launch closed with the test, and
 * a page whose console errors and requests to other hosts are collected.
 */
import { fileURLToPath } from 'node:url';

import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Kept for a person to look at (git-ignored). */
export const SHOTS = fileURLToPath(new URL('../face/screenshots/', import.meta.url));

export async function launchChromium(t: { teardown(fn: () => unknown): void }): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}

/** Errors the page reports (console errors, uncaught exceptions) and URLs it requested outside `origin`. */
export function watchPage(page: Page, origin: string): { problems: string[]; foreign: string[] } {
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(origin)) foreign.push(request.url());
  });
  return { problems, foreign };
}
