import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markAcknowledged } from '../core/edi/document.repository.js';
import { resendEdiDocument } from '../core/edi/resend-edi-document.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, type TestApp } from './harness.js';
import { sendTo } from './support/edi-documents.js';
import { SEEDED_PARTNER_SECRET, seedPartners } from './support/edi-partners.js';
import { acceptAll, startReceiver, type ReceivedRequest, type Receiver } from './support/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let defaultDelays: number[];

const partners = '/api/p/v1.0/edi/partners';
const documents = '/api/p/v1.0/edi/documents';
const ALL = 'tn_prairie-all';

/** Sets edp_kc's fields through the API, as an operator would. */
async function patchPartner(changes: Record<string, unknown>): Promise<void> {
  const current = await t.api(`${partners}/edp_kc`, { as: ALL });
  const response = await t.api(`${partners}/edp_kc`, { method: 'PATCH', as: ALL, body: changes, headers: { 'If-Match': current.headers.get('etag')! } });
  expect(response.status, response.text).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  t.config.production = false;
  defaultDelays = t.config.webhookRetryDelays;
  await seedPartners(t.db, t.config);
  receiver = await startReceiver();
  dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
  await patchPartner({ OutboundUrl: `${receiver.url}/edi/inbox` });
  // The partner event goes to no subscription of interest here; fan it out now.
  await dispatcher.tick();
});
afterEach(() => {
  receiver.respond = acceptAll;
  receiver.requests.length = 0;
  t.config.webhookRetryDelays = defaultDelays;
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const send = () => sendTo(t.db, t.clock, 'tn_prairie', 'edp_kc');
const statusOf = async (id: string) => (await t.api(`${documents}/${id}`, { as: ALL })).body.Status as string;
const deliveryOf = (documentId: string) => t.db.selectFrom('webhook_deliveries').selectAll().where('edi_document_id', '=', documentId).executeTakeFirst();
const attemptsOf = async (documentId: string) => {
  const delivery = await deliveryOf(documentId);
  return t.db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', delivery!.id).orderBy('attempt').execute();
};
const failWith = (status: number) => {
  receiver.respond = (_request, res) => {
    res.writeHead(status);
    res.end('not now');
  };
};
/** The signature the partner computes with its secret, by the standardwebhooks package. */
const expectedSignature = (request: ReceivedRequest) =>
  new Webhook(SEEDED_PARTNER_SECRET).sign(String(request.headers['webhook-id']), new Date(Number(request.headers['webhook-timestamp']) * 1000), request.body);

describe('outbound EDI delivery', () => {
  it('POSTs the X12 text as application/edi-x12, signed with the partner secret, and marks the document Delivered', async () => {
    const { id } = await send();
    expect(await statusOf(id)).toBe('Pending');
    await dispatcher.tick();

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const document = (await t.api(`${documents}/${id}`, { as: ALL })).body;
    expect(request!.path).toBe('/edi/inbox');
    expect(request!.headers['content-type']).toBe('application/edi-x12');
    expect(request!.body).toBe(document.X12);
    expect(request!.headers['webhook-id']).toBe((await deliveryOf(id))!.id);
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(request!.headers['webhook-signature']).toBe(expectedSignature(request!));
    expect(document.Status).toBe('Delivered');
    expect((await attemptsOf(id)).map((attempt) => [attempt.status, attempt.http_status, attempt.event_type])).toEqual([['success', 200, 'edi.990']]);
  });

  it('retries a refused delivery on the webhook schedule, then marks it Failed; a resend delivers it with the same webhook-id', async () => {
    t.config.webhookRetryDelays = [30];
    failWith(503);
    const { id } = await send();
    await dispatcher.tick();
    expect(await statusOf(id)).toBe('Pending');
    t.clock.advance(30_000);
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(await statusOf(id)).toBe('Failed');
    expect((await attemptsOf(id)).map((attempt) => attempt.status)).toEqual(['failure', 'failure']);

    receiver.respond = acceptAll;
    const deliveryId = await resendEdiDocument(t.db, t.clock, 'tn_prairie', id);
    expect(deliveryId).toBe((await deliveryOf(id))!.id);
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests[2]!.headers['webhook-id']).toBe(deliveryId);
    expect(await statusOf(id)).toBe('Delivered');
  });

  it('keeps Delivered when a later resend fails', async () => {
    t.config.webhookRetryDelays = [];
    const { id } = await send();
    await dispatcher.tick();
    failWith(500);
    await resendEdiDocument(t.db, t.clock, 'tn_prairie', id);
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(await statusOf(id)).toBe('Delivered');
  });

  it("never downgrades a partner's 997: Acknowledged stays after a delivery, Rejected after a failure", async () => {
    t.config.webhookRetryDelays = [];
    const now = () => formatStoredDateTime(t.clock.now());
    const acknowledged = await send();
    await markAcknowledged(t.db, 'tn_prairie', 'edp_kc', String(acknowledged.controlNumber), 'Acknowledged', [], now());
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(1);
    expect(await statusOf(acknowledged.id)).toBe('Acknowledged');

    failWith(500);
    const rejected = await send();
    await markAcknowledged(t.db, 'tn_prairie', 'edp_kc', String(rejected.controlNumber), 'Rejected', [], now());
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(2);
    expect(await statusOf(rejected.id)).toBe('Rejected');
  });

  it('skips an Inactive partner like a disabled subscription: nothing posted, the attempt logged, the document Pending in the mailbox', async () => {
    const { id } = await send();
    await patchPartner({ Status: 'Inactive' });
    try {
      await dispatcher.tick();
      expect(receiver.requests).toEqual([]);
      expect(await statusOf(id)).toBe('Pending');
      const [attempt, ...more] = await attemptsOf(id);
      expect(more).toEqual([]);
      expect(attempt).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/Inactive/) });
    } finally {
      await patchPartner({ Status: 'Active' });
    }
    // Active again: an operator's resend sends it.
    await resendEdiDocument(t.db, t.clock, 'tn_prairie', id);
    await dispatcher.tick();
    expect(receiver.requests).toHaveLength(1);
    expect(await statusOf(id)).toBe('Delivered');
  });

  it('queues nothing for a partner without an OutboundUrl: the document waits in the mailbox, and a resend is refused', async () => {
    const { id } = await sendTo(t.db, t.clock, 'tn_prairie', 'edp_dal');
    expect(await deliveryOf(id)).toBeUndefined();
    await dispatcher.tick();
    expect(receiver.requests).toEqual([]);
    expect(await statusOf(id)).toBe('Pending');
    await expect(resendEdiDocument(t.db, t.clock, 'tn_prairie', id)).rejects.toThrow(/no OutboundUrl/);
    await expect(resendEdiDocument(t.db, t.clock, 'tn_harbor', id)).rejects.toThrow(/has no EDI document/);
  });

  it('sends a first delivery on resend when the partner got its URL after the document was sent', async () => {
    await patchPartner({ OutboundUrl: null });
    const { id } = await send();
    expect(await deliveryOf(id)).toBeUndefined();
    await patchPartner({ OutboundUrl: `${receiver.url}/edi/inbox` });
    const deliveryId = await resendEdiDocument(t.db, t.clock, 'tn_prairie', id);
    await dispatcher.tick();
    expect(receiver.requests.map((request) => request.headers['webhook-id'])).toEqual([deliveryId]);
    expect(await statusOf(id)).toBe('Delivered');
  });
});
