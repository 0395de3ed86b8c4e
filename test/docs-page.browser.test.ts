import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretOf, startTestApp, type TestApp } from './harness.js';

// Debian's chromium (`apt-get install chromium`). In CI a missing browser is a failure, not a
// skip; locally the test may skip. The page does not depend on the database, so the test runs
// in the sqlite project only.
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
const sqliteProject = process.env.WAYBILL_TEST_DB !== 'postgres';
const run = sqliteProject && (haveChromium || inCi);

// A demo client with four scopes, load:read among them: asking for the whole catalog would be a
// 400 invalid_scope, so this also shows the page asks for no more than the client has.
const CLIENT = 'prairie-readonly';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  if (!run) return;
  if (!haveChromium) throw new Error(`CI=true and no Chromium at ${CHROMIUM}: install it (apt-get install -y --no-install-recommends chromium)`);
  t = await startTestApp();
  // The document names the token host's bound URL, as PUBLIC_AUTH_URL would in production
  // (set before the first request, which builds the document).
  t.config.publicAuthUrl = t.authUrl;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(!run)('the reference page /docs in a browser', () => {
  it('authorizes with client credentials and runs GET /loads with "Try it out"', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const allowedOrigins = [new URL(t.apiUrl).origin, new URL(t.authUrl).origin];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('data:')) return;
      if (!allowedOrigins.includes(new URL(url).origin)) problems.push(`request to another host: ${url}`);
    });
    const tokenAnswers: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${t.authUrl}/oauth/token`) && response.request().method() === 'POST') tokenAnswers.push(response.status());
    });

    // A large document renders slowly on a busy machine: generous waits, nothing else.
    page.setDefaultTimeout(90_000);
    // The deep link opens GET /loads (the list renders operations only as they scroll into view).
    await page.goto(`${t.apiUrl}/docs#/Loads/loads-findLoads`);
    await page.locator('.btn.authorize').first().click();
    await page.locator('#client_id_clientCredentials').fill(CLIENT);
    await page.locator('#client_secret_clientCredentials').fill(secretOf(CLIENT));
    // The page offers no scope checkboxes: the token carries the client's own scopes.
    expect(await page.locator('.auth-container input[type=checkbox]').count()).toBe(0);
    await page.locator('.auth-container').filter({ has: page.locator('#client_id_clientCredentials') }).locator('button.authorize').click();
    await page.locator('.auth-container button[aria-label="Remove authorization"]').waitFor();
    expect(tokenAnswers).toEqual([200]);
    await page.locator('.modal-ux button.btn-done').first().click();

    const operation = page.locator('#operations-Loads-loads-findLoads');
    await operation.waitFor();
    if ((await operation.locator('.try-out__btn').count()) === 0) await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await operation.locator('.live-responses-table').textContent()).toContain('"Items"');

    // One section at a time (the whole document is far too slow for Swagger UI): another
    // section's link shows its operations, authorization kept; the webhook events have theirs.
    expect(await page.locator('#operations-tag-Trips').count()).toBe(0);
    await page.locator('#tags a', { hasText: /^Subsidiaries$/ }).click();
    const subsidiaries = page.locator('#operations-Subsidiaries-subsidiaries-findSubsidiaries');
    await subsidiaries.waitFor();
    expect(await page.locator('#operations-Loads-loads-findLoads').count()).toBe(0);
    await subsidiaries.locator('.opblock-summary-control').click();
    await subsidiaries.locator('.try-out__btn').click();
    await subsidiaries.locator('.execute').click();
    const listed = subsidiaries.locator('.live-responses-table .response .response-col_status').first();
    await listed.waitFor();
    expect((await listed.textContent())?.trim()).toBe('200');
    await page.locator('#tags a', { hasText: 'Webhook events' }).click();
    await page.locator('.opblock', { hasText: 'trip.changed' }).first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);
});
