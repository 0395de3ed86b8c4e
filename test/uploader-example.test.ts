import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf, uploadLoadDocument } from '../examples/uploader.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

const ALL = 'tn_prairie-all';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const documentsOf = async (loadNumber: string) =>
  Number(
    (
      await t.db
        .selectFrom('documents')
        .innerJoin('loads', 'loads.id', 'documents.load_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('loads.load_number', '=', loadNumber)
        .where('documents.is_deleted', '=', 0)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('examples/uploader.ts', () => {
  it('uploads a PDF to a load as a Proof of Delivery, and its retry with the same key stores nothing more', async () => {
    const options = { apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE };
    const before = await documentsOf('L-1001');
    const upload = { loadNumber: 'L-1001', documentType: 'Proof of Delivery', fileName: 'pod.pdf', content: samplePdf(), idempotencyKey: 'uploader-example-1' };
    const first = await uploadLoadDocument(options, upload);
    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(first.document).toMatchObject({ AttachmentType: 'Proof of Delivery', AttachmentSize: samplePdf().byteLength });
    expect(first.document.DownloadUrl).toMatch(/\/files\//);
    const download = await fetch(first.document.DownloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(samplePdf());

    const retry = await uploadLoadDocument(options, upload);
    expect(retry).toMatchObject({ status: 201, replayed: true });
    expect(retry.document.Id).toBe(first.document.Id);
    expect(await documentsOf('L-1001')).toBe(before + 1);
    // The same key with other parts is a reuse, not a replay.
    await expect(uploadLoadDocument(options, { ...upload, documentType: 'Bill of Lading' })).rejects.toThrow(/409 .*IdempotencyKey|409 .*already used/);
    expect(await documentsOf('L-1001')).toBe(before + 1);
  });
});
