/**
 * Times the reference page as a newcomer meets it (docs/first-ten-minutes.md): opens
 * `{apiUrl}/docs` in headless Chromium with an empty cache and prints, in milliseconds from
 * navigation, when the operations are rendered, then how long Authorize (client credentials)
 * and one "Try it out" of GET /loads take. Against a running `npm start`:
 *
 *   npx tsx scripts/time-docs-page.ts [apiUrl] [clientId] [clientSecret]
 */
import { chromium } from 'playwright-core';

const apiUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const clientId = process.argv[3] ?? 'prairie-readonly';
const clientSecret = process.argv[4] ?? 'demo-secret-prairie-ro-0003';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  const bytes = new Map<string, number>();
  page.on('response', async (response) => {
    const length = Number(response.headers()['content-length'] ?? NaN);
    bytes.set(new URL(response.url()).pathname, length);
  });
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  await page.goto(`${apiUrl}/docs`, { waitUntil: 'domcontentloaded' });
  const domReady = since();
  await page.locator('.opblock-tag').first().waitFor();
  const rendered = since();
  const operations = await page.locator('.opblock').count();

  const authStart = performance.now();
  await page.locator('.btn.authorize').first().click();
  await page.locator('#client_id_clientCredentials').fill(clientId);
  await page.locator('#client_secret_clientCredentials').fill(clientSecret);
  await page.locator('.auth-container').filter({ has: page.locator('#client_id_clientCredentials') }).locator('button.authorize').click();
  await page.locator('.auth-container button[aria-label="Remove authorization"]').waitFor();
  await page.locator('.modal-ux button.btn-done').first().click();
  const authorized = Math.round(performance.now() - authStart);

  const tryStart = performance.now();
  // The page shows one section at a time (adapters/web/docs.ts): open Loads, then GET /loads.
  if ((await page.locator('#operations-Loads-loads-findLoads').count()) === 0) await page.locator('#tags a', { hasText: /^Loads$/ }).click();
  const operation = page.locator('#operations-Loads-loads-findLoads');
  await operation.waitFor();
  if ((await operation.locator('.try-out__btn').count()) === 0) await operation.locator('.opblock-summary-control').click();
  await operation.locator('.try-out__btn').click();
  await operation.locator('.execute').click();
  const status = await operation.locator('.live-responses-table .response .response-col_status').first().textContent();
  const tried = Math.round(performance.now() - tryStart);

  console.log(JSON.stringify({
    domContentLoadedMs: domReady,
    operationsRenderedMs: rendered,
    operationsShown: operations,
    authorizeMs: authorized,
    tryItOutMs: tried,
    tryItOutStatus: status?.trim(),
    transferred: Object.fromEntries([...bytes].filter(([path]) => path.startsWith('/docs') || path === '/openapi.json')),
  }, null, 2));
} finally {
  await browser.close();
}
