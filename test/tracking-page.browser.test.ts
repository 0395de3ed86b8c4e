import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../adapters/project-root.js';
import { startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

/**
 * The customer tracking page in a real browser (Debian's Chromium): what a customer sees on a
 * phone and on a desk. It runs once, in the SQLite project: the page's data is the same on
 * both databases, which test/tracking-links.test.ts checks over HTTP on each.
 *
 * Without /usr/bin/chromium it fails in CI (CI=true, where .ci/run installs it) and is skipped
 * on a developer's machine. `UPDATE_SCREENSHOTS=1` writes the README's screenshots to docs/.
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const runHere = testDatabaseKind() === 'sqlite' && (haveChromium || process.env.CI === 'true');

describe.runIf(runHere)('tracking page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    t = await startTestApp({ now: '2026-11-22T12:00:00Z' });
    const position = await t.api('/api/p/v1.0/assets/trk_101/locations', {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' }, RecordedAt: '2026-11-22T11:40:00Z', TripId: 'trp_1001_a' },
    });
    expect(position.status, position.text).toBe(201);
    // A Public note the customer sees (one long unbroken word, which must wrap on a phone) and an Internal one it never does.
    for (const [Text, Access] of [
      ['Driver reports light traffic; dock 4 at the consignee. Ref ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ABCDEFGHIJ', 'Public'],
      ['Customer disputes detention INTERNAL-ONLY-5512', 'Internal'],
    ]) {
      const note = await t.api('/api/p/v1.0/loads/L-1001/notes', { method: 'POST', as: 'tn_prairie-all', body: { Text, Access } });
      expect(note.status, note.text).toBe(201);
    }
    const link = await t.api('/api/p/v1.0/loads/L-1001/tracking-link', { method: 'POST', as: 'tn_prairie-all' });
    expect(link.status, link.text).toBe(201);
    url = link.body.Url;
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI installs Debian's chromium package (.ci/run)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the timeline, the ETA and the map at 1280 and 375 px, with no console error and no outside request', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const problems: string[] = [];
    const origin = new URL(t.apiUrl).host;
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const target = new URL(request.url());
      if (target.protocol !== 'data:' && target.host !== origin) problems.push(`outside request: ${request.url()}`);
    });

    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Load L-1001: In transit');

    // The timeline: every stop, in route order.
    const stops = page.locator('#timeline > li');
    expect(await stops.evaluateAll((items) => items.map((item) => item.getAttribute('data-sequence')))).toEqual(['1', '2']);
    expect(await stops.allInnerTexts()).toEqual([
      expect.stringMatching(/Pickup\s*Kansas City, MO\s*Completed[^]*Appointment Sat Nov 21, 08:00 CST/),
      expect.stringMatching(/Delivery\s*Oklahoma City, OK\s*Open[^]*Window Sun Nov 22, 08:00–16:00 CST/),
    ]);
    expect(await page.locator('#eta-text').innerText()).toMatch(/^Arriving (Sun|Mon) Nov \d\d, \d\d:\d\d CST, (within the delivery window|about [\d.]+ (min|h) after the delivery window closes)$/);
    expect(await page.locator('#last-position').innerText()).toContain('20 min ago');

    // The map: a marker per stop and the truck, drawn inside the picture.
    const map = await page.locator('#route-map').boundingBox();
    expect(map!.width).toBeGreaterThan(500);
    for (const id of ['#map-stop-1', '#map-stop-2', '#map-truck']) {
      const box = await page.locator(`${id} circle`).first().boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.x >= map!.x && box!.x + box!.width <= map!.x + map!.width, id).toBe(true);
      expect(box!.y >= map!.y && box!.y + box!.height <= map!.y + map!.height, id).toBe(true);
    }
    expect(await page.locator('#map-stop-1 .map-label').textContent()).toBe('Kansas City, MO');
    expect(await page.locator('#route-map .map-states path').count()).toBeGreaterThanOrEqual(3);

    // Notes: the Public one, never the Internal one.
    expect(await page.locator('#notes .note-text').allInnerTexts()).toEqual([expect.stringContaining('Driver reports light traffic; dock 4')]);
    expect(await page.locator('body').innerText()).not.toContain('INTERNAL-ONLY-5512');

    const update = process.env.UPDATE_SCREENSHOTS === '1';
    const docs = join(projectRoot(), 'docs');
    if (update) mkdirSync(docs, { recursive: true });
    const wide = await page.screenshot({ fullPage: true, ...(update ? { path: join(docs, 'tracking-page.png') } : {}) });
    expect(wide.length).toBeGreaterThan(10_000);

    // A phone: one column, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    // Evaluated in the page, where `document` exists (the type check has no DOM library).
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const mapOnPhone = await page.locator('#route-map').boundingBox();
    expect(mapOnPhone!.width).toBeLessThanOrEqual(375);
    expect(await page.locator('#eta-text').isVisible()).toBe(true);
    expect(await page.locator('#notes').isVisible()).toBe(true);
    const narrow = await page.screenshot({ fullPage: true, ...(update ? { path: join(docs, 'tracking-page-mobile.png') } : {}) });
    expect(narrow.length).toBeGreaterThan(10_000);

    expect(problems).toEqual([]);
    await context.close();
  });
});
