import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerLoad, postTender, sampleTender, startTenderReceiver, type TenderReceiver } from '../examples/shipper-tender.js';
import { FreightApi } from '../examples/integration-client.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

const ALL = 'tn_prairie-all';
let t: TestApp;
let receiver: TenderReceiver | undefined;
beforeAll(async () => {
  // Standard Webhooks receivers check the signature's timestamp against their own clock.
  t = await startTestApp({ now: new Date().toISOString() });
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('examples/shipper-tender.ts', () => {
  it('posts a tender, hears tender.accepted on its verified webhook, and reads the load', async () => {
    const api = new FreightApi({ apiUrl: t.apiUrl, authUrl: t.authUrl, clientId: ALL, clientSecret: secretOf(ALL), audience: AUDIENCE, now: () => t.clock.now().getTime() });
    // The subscription's secret comes with its creation, which needs the receiver's URL first.
    let secret = '';
    receiver = await startTenderReceiver({ secret: () => secret });
    const created = await t.api('/api/p/v1.0/webhooks', {
      method: 'POST',
      as: ALL,
      body: { Name: 'Shipper tenders', Url: receiver.url, SubsidiaryId: 'sub_kc', EventTypes: ['tender.*'] },
    });
    expect(created.status, created.text).toBe(201);
    secret = created.body.Secret;
    const verified = await t.api(`/api/p/v1.0/webhooks/${created.body.Id}/verify`, { method: 'POST', as: ALL });
    expect(verified.body, verified.text).toMatchObject({ Verified: true, Status: 'Active' });

    // The carrier's dispatcher accepts whatever arrives, and the worker delivers the events.
    const carrier = (async () => {
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const listed = await t.api('/api/p/v1.0/tenders?Status=Pending&CustomerId=cus_heartland', { as: ALL });
        const offer = listed.body.Items.find((tender: { ExternalId: string }) => tender.ExternalId === 'PO-SHIP-1');
        if (offer) {
          expect((await t.api(`/api/p/v1.0/tenders/${offer.Id}/accept`, { method: 'POST', as: ALL })).status).toBe(200);
          await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the tender never arrived');
    })();

    const result = await offerLoad(api, receiver, sampleTender('PO-SHIP-1'), 10_000);
    await carrier;
    expect(result.answer.type).toBe('tender.accepted');
    expect(result.answer.tender).toMatchObject({ Id: result.tender.Id, Status: 'Accepted' });
    expect(result.load).toMatchObject({ LoadNumber: result.answer.tender.LoadNumber, Status: 'Planned' });
    expect(result.load!.Trips[0]!.Stops).toHaveLength(2);

    // A retry of the same post answers the first tender, now Accepted.
    const again = await postTender(api, sampleTender('PO-SHIP-1'));
    expect(again).toMatchObject({ Id: result.tender.Id, Status: 'Accepted' });
  });
});
