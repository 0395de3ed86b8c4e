import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/auth/scopes.js';
import { CHUNK_BYTES } from '../core/documents/document-content.js';
import { createCaller } from '../core/router.js';
import { createMigrator, migrateToLatest } from '../db/migrate.js';
import { startTestApp, type TestApp } from './harness.js';
import { documentFixture } from './support/document-fixture.js';
import { storedContent } from './support/stored-content.js';

// Migration 0098 moves each document's bytes from documents.content into 256 KiB pieces.
const BEFORE = '2026-11-23T0097-tracking-links';
const V = '/api/p/v1.0';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: documentFixture() });
});
afterAll(async () => {
  await t?.close();
});

/** documents.content as it was before the migration (the column only exists then). */
async function contentColumn(documentId: string): Promise<Buffer | null> {
  const row = await (t.db as any).selectFrom('documents').select('content').where('id', '=', documentId).executeTakeFirstOrThrow();
  return row.content === null ? null : Buffer.from(row.content);
}

/** Buffers compared as bytes (toEqual walks them element by element: seconds for a few hundred KiB). */
function expectSameBytes(actual: Buffer | null, expected: Buffer): void {
  expect(actual === null ? null : actual.equals(expected), `${actual?.length} bytes, expected ${expected.length}`).toBe(true);
}

async function download(documentId: string, loadNumber = 'L-1001'): Promise<Buffer> {
  const list = await t.api(`${V}/loads/${loadNumber}/documents`, { as: 'tn_prairie-all' });
  const document = list.body.find((d: any) => d.id === documentId);
  const response = await fetch(document.DownloadUrl);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('migration 0098 (document chunks)', () => {
  it('down puts every file back into documents.content; up cuts them into pieces again, files unchanged', async () => {
    const long = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2 * CHUNK_BYTES + 17)]);
    const caller = createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'ops-app', Scopes: [...SCOPES] },
    });
    const created = await caller.documents.createLoadDocument({ LoadNumber: 'L-1001', AttachmentType: 'Bill of Lading', FileName: 'long.pdf', ContentBase64: long.toString('base64') });
    const empty = await caller.documents.createLoadDocument({ LoadNumber: 'L-1001', AttachmentType: 'Bill of Lading', FileName: 'empty.pdf', ContentBase64: '' });
    const bol = await storedContent(t.db, 'doc_1001_bol');
    expect(bol.length).toBeGreaterThan(0);

    const migrator = await createMigrator(t.db);
    const down = await migrator.migrateTo(BEFORE);
    expect(down.error).toBeUndefined();
    expectSameBytes(await contentColumn(created.id), long);
    expectSameBytes(await contentColumn(empty.id), Buffer.alloc(0));
    expectSameBytes(await contentColumn('doc_1001_bol'), bol);

    // Written while the column held the bytes: the migration must move this one as well.
    const later = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(CHUNK_BYTES)]);
    await (t.db as any).updateTable('documents').set({ content: later, attachment_size: later.length }).where('id', '=', 'doc_1001_ratecon').execute();

    // 0098 first, then whatever came after it.
    expect((await migrateToLatest(t.db))[0]).toBe('2026-11-23T0098-document-chunks');
    const pieces = await t.db.selectFrom('document_chunks').select(['seq', 'tenant_id']).where('document_id', '=', created.id).orderBy('seq').execute();
    expect(pieces).toEqual([0, 1, 2].map((seq) => ({ seq, tenant_id: 'tn_prairie' })));
    expectSameBytes(await storedContent(t.db, created.id), long);
    expectSameBytes(await storedContent(t.db, 'doc_1001_ratecon'), later);
    expect(await t.db.selectFrom('document_chunks').select('seq').where('document_id', '=', empty.id).execute()).toEqual([]);
    await expect(contentColumn(created.id)).rejects.toThrow();

    expectSameBytes(await download(created.id), long);
    expectSameBytes(await download('doc_1001_ratecon'), later);
    expectSameBytes(await download(empty.id), Buffer.alloc(0));
    expectSameBytes(await download('doc_1001_bol'), bol);
  });
});
