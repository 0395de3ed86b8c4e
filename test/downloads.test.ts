import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/auth/scopes.js';
import {
  DOWNLOAD_LINK_TTL_MS,
  downloadLinkKey,
  issueDownloadLink,
  signDownloadToken,
  verifyDownloadToken,
} from '../core/documents/download-link.js';
import { createCaller } from '../core/router.js';
import { SECRET_KEY, startTestApp, type TestApp } from './harness.js';
import { documentFixture, PDF_BASE64 } from './support/document-fixture.js';
import { storedContent } from './support/stored-content.js';

const NOW = '2026-11-22T12:00:00.000Z';
const V = '/api/p/v1.0';

describe('download tokens (pure)', () => {
  const key = downloadLinkKey(SECRET_KEY);
  const now = new Date(NOW);
  const expiry = now.getTime() + DOWNLOAD_LINK_TTL_MS;

  it('derives one key per secret, distinct from the secret', () => {
    expect(downloadLinkKey(SECRET_KEY)).toBe(key);
    expect(key.equals(SECRET_KEY)).toBe(false);
    expect(downloadLinkKey(Buffer.from('another-secret-key-0123456789abcdef')).equals(key)).toBe(false);
    expect(() => downloadLinkKey(null)).toThrow(/SECRET_KEY/);
  });

  it('issues a link under the base URL that expires 10 minutes from now', () => {
    const link = issueDownloadLink({ key, baseUrl: 'https://api.example.test', documentId: 'doc_1', now });
    expect(link.ExpiresAt).toBe('2026-11-22T12:10:00.000Z');
    expect(link.DownloadUrl).toMatch(/^https:\/\/api\.example\.test\/files\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const token = link.DownloadUrl.slice('https://api.example.test/files/'.length);
    expect(verifyDownloadToken(key, token, now)).toEqual({ valid: true, documentId: 'doc_1', expiresAtMs: expiry });
  });

  it('is valid until one millisecond before its expiry and expired from then on', () => {
    const token = signDownloadToken(key, 'doc_1', expiry);
    expect(verifyDownloadToken(key, token, new Date(expiry - 1)).valid).toBe(true);
    expect(verifyDownloadToken(key, token, new Date(expiry))).toEqual({ valid: false, reason: 'expired' });
    expect(verifyDownloadToken(key, token, new Date(expiry + 86_400_000))).toEqual({ valid: false, reason: 'expired' });
  });

  it('signs the document id and the expiry: changing either breaks the signature', () => {
    const token = signDownloadToken(key, 'doc_1', expiry);
    const [, signature] = token.split('.');
    const otherId = `${Buffer.from(`${expiry}:doc_2`).toString('base64url')}.${signature}`;
    const later = `${Buffer.from(`${expiry + 3_600_000}:doc_1`).toString('base64url')}.${signature}`;
    expect(verifyDownloadToken(key, otherId, now)).toEqual({ valid: false, reason: 'forged' });
    expect(verifyDownloadToken(key, later, now)).toEqual({ valid: false, reason: 'forged' });
  });

  it('reports a forged token as forged even when its claimed expiry has passed', () => {
    const forged = `${Buffer.from(`${now.getTime() - 1}:doc_1`).toString('base64url')}.AAAA`;
    expect(verifyDownloadToken(key, forged, now)).toEqual({ valid: false, reason: 'forged' });
  });

  it('refuses tokens signed with another key', () => {
    const other = downloadLinkKey(Buffer.from('another-secret-key-0123456789abcdef'));
    expect(verifyDownloadToken(key, signDownloadToken(other, 'doc_1', expiry), now)).toEqual({ valid: false, reason: 'forged' });
  });

  it.each(['', '.', 'abc', 'abc.', '.abc', 'a.b.c', 'a+b.c/d', 'YWJj.YWJj=', '   ', 'MTIz.%%%'])('refuses the malformed token %j', (token) => {
    expect(verifyDownloadToken(key, token, now)).toEqual({ valid: false, reason: 'forged' });
  });

  it('refuses every single-character alteration of a genuine token', () => {
    const token = signDownloadToken(key, 'doc_1001_bol', expiry);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const replacement = alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!;
      const altered = token.slice(0, i) + replacement + token.slice(i + 1);
      expect(verifyDownloadToken(key, altered, now).valid, `position ${i}`).toBe(false);
    }
  });

  it('keeps ids with separators intact', () => {
    const token = signDownloadToken(key, 'doc:with.dots:and:colons', expiry);
    expect(verifyDownloadToken(key, token, now)).toMatchObject({ valid: true, documentId: 'doc:with.dots:and:colons' });
  });
});

describe('GET /files/{token}', () => {
  let t: TestApp;
  beforeAll(async () => {
    const fixture = documentFixture();
    fixture.Tenants[0].Loads.find((l: any) => l.LoadNumber === 'L-1990').Documents = [
      { id: 'doc_1990_nofile', AttachmentType: 'Bill of Lading', FileName: 'paper-only.pdf' },
    ];
    t = await startTestApp({ fixture, now: NOW });
  });
  afterAll(async () => {
    await t?.close();
  });

  const listDocuments = async (loadNumber = 'L-1001') => {
    const response = await t.api(`${V}/loads/${loadNumber}/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    return response.body as Array<Record<string, any>>;
  };
  const linkOf = async (documentId: string, loadNumber = 'L-1001') => {
    const document = (await listDocuments(loadNumber)).find((d) => d.id === documentId);
    if (!document) throw new Error(`no ${documentId}`);
    return document;
  };
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

  it('serves the stored bytes without a bearer token, with type, length and file name', async () => {
    const document = await linkOf('doc_1001_bol');
    expect(document.DownloadUrl.startsWith(`${t.apiUrl}/files/`)).toBe(true);
    expect(document.ExpiresAt).toBe('2026-11-22T12:10:00.000Z');
    const response = await fetch(document.DownloadUrl);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString('base64')).toBe(PDF_BASE64);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="bol_20261119081000.pdf"');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${document.AttachmentPath}"`);
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves trip and carrier documents, and the longer carrier file byte for byte', async () => {
    const trip = await linkOf('doc_1001_a_pop');
    const tripResponse = await fetch(trip.DownloadUrl);
    expect(tripResponse.status).toBe(200);
    expect(tripResponse.headers.get('content-type')).toBe('image/jpeg');
    const carrier = (await t.api(`${V}/carriers/car_redriver/documents`, { as: 'prairie-readonly' })).body.find(
      (d: any) => d.id === 'doc_car_agreement',
    );
    const carrierResponse = await fetch(carrier.DownloadUrl);
    const stored = await storedContent(t.db, 'doc_car_agreement');
    expect(Buffer.from(await carrierResponse.arrayBuffer()).equals(stored)).toBe(true);
    expect(carrierResponse.headers.get('content-length')).toBe(String(carrier.AttachmentSize));
  });

  it('answers HEAD with the headers and no body', async () => {
    const document = await linkOf('doc_1001_bol');
    const response = await fetch(document.DownloadUrl, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(document.AttachmentSize));
    expect(await response.text()).toBe('');
  });

  it('works until the tenth minute ends, then answers 410 Gone', async () => {
    const document = await linkOf('doc_1001_ratecon');
    try {
      t.clock.advance(DOWNLOAD_LINK_TTL_MS - 1);
      expect((await fetch(document.DownloadUrl)).status).toBe(200);
      t.clock.advance(1);
      const response = await fetch(document.DownloadUrl);
      expect(response.status).toBe(410);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = await response.json();
      expect(problem).toMatchObject({ Type: `${t.apiUrl}/errors/Gone`, Status: 410 });
      expect(JSON.stringify(problem)).not.toContain('doc_1001_ratecon');
    } finally {
      t.clock.set(NOW);
    }
  });

  it('issues a fresh link, valid 10 more minutes, on every read', async () => {
    try {
      t.clock.advance(15 * 60_000);
      const document = await linkOf('doc_1001_ratecon');
      expect(document.ExpiresAt).toBe('2026-11-22T12:25:00.000Z');
      expect((await fetch(document.DownloadUrl)).status).toBe(200);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('answers 404 for altered and forged tokens', async () => {
    const document = await linkOf('doc_1001_bol');
    const token = tokenOf(document.DownloadUrl);
    const [payload, signature] = token.split('.') as [string, string];
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const expiry = Date.parse(document.ExpiresAt);
    const candidates = [
      `${payload}.${flip(signature)}`,
      `${flip(payload)}.${signature}`,
      `${Buffer.from(`${expiry}:doc_1001_ratecon`).toString('base64url')}.${signature}`,
      `${Buffer.from(`${expiry + 86_400_000}:doc_1001_bol`).toString('base64url')}.${signature}`,
      signDownloadToken(downloadLinkKey(Buffer.from('attacker-secret-key-0123456789abcdef')), 'doc_1001_bol', expiry),
      'not-a-token',
      payload,
    ];
    for (const candidate of candidates) {
      const response = await fetch(`${t.apiUrl}/files/${candidate}`);
      expect(response.status, candidate).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as { Type: string }).Type).toBe(`${t.apiUrl}/errors/NotFound`);
    }
  });

  it('answers 404 for a deleted document, even with a genuine unexpired token', async () => {
    const token = signDownloadToken(downloadLinkKey(SECRET_KEY), 'doc_1001_deleted', Date.parse(NOW) + DOWNLOAD_LINK_TTL_MS);
    const response = await fetch(`${t.apiUrl}/files/${token}`);
    expect(response.status).toBe(404);
  });

  it('stops serving a document deleted after its link was issued', async () => {
    const created = await createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'ops-app', Scopes: [...SCOPES] },
    }).documents.createLoadDocument({ LoadNumber: 'L-1001', AttachmentType: 'Shipping Labels', FileName: 'labels.pdf', ContentBase64: PDF_BASE64 });
    expect((await fetch(created.DownloadUrl!)).status).toBe(200);
    await t.db.updateTable('documents').set({ is_deleted: 1 }).where('id', '=', created.id).execute();
    expect((await fetch(created.DownloadUrl!)).status).toBe(404);
  });

  it('has no link for a document without a stored file', async () => {
    const [document] = await listDocuments('L-1990');
    expect(document).toMatchObject({ id: 'doc_1990_nofile', AttachmentSize: null, DownloadUrl: null, ExpiresAt: null });
    const token = signDownloadToken(downloadLinkKey(SECRET_KEY), 'doc_1990_nofile', Date.parse(NOW) + DOWNLOAD_LINK_TTL_MS);
    expect((await fetch(`${t.apiUrl}/files/${token}`)).status).toBe(404);
  });

  it('keeps an issued link working across a type change', async () => {
    const before = await linkOf('doc_1001_ratecon');
    t.clock.advance(60_000);
    try {
      const patched = await t.api(`${V}/loads/L-1001/documents/doc_1001_ratecon`, {
        method: 'PATCH',
        as: 'prairie-integration',
        body: { DocumentType: 'Signed Customer Rate Confirmation' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.id).toBe('doc_1001_ratecon');
      expect(patched.body.AttachmentPath).toBe(before.AttachmentPath);
      const response = await fetch(before.DownloadUrl);
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).toString('base64')).toBe(PDF_BASE64);
      expect((await fetch(patched.body.DownloadUrl)).status).toBe(200);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('names non-ASCII files safely', async () => {
    const created = await createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'ops-app', Scopes: [...SCOPES] },
    }).documents.createLoadDocument({ LoadNumber: 'L-1001', AttachmentType: 'Bill of Lading', FileName: 'façade.pdf', ContentBase64: PDF_BASE64 });
    const response = await fetch(created.DownloadUrl!);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="fa_ade_20261122120000.pdf"; filename*=UTF-8''${encodeURIComponent('façade_20261122120000.pdf')}`,
    );
  });

  it('answers other methods with 405 and Allow', async () => {
    const document = await linkOf('doc_1001_bol');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(document.DownloadUrl, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('ignores a bearer token: the link is the credential', async () => {
    const document = await linkOf('doc_1001_bol');
    const response = await fetch(document.DownloadUrl, { headers: { authorization: 'Bearer nonsense' } });
    expect(response.status).toBe(200);
  });
});

describe('GET /files/{token}: public rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ fixture: documentFixture(), now: NOW, env: { RATE_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is limited to 20 requests per second per client address, forged tokens included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await fetch(`${t.apiUrl}/files/forged-${i}`)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(statuses[20]).toBe(429);
  });
});
