import { afterAll, beforeAll, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { SECRET_KEY, startTestApp, type TestApp } from './harness.js';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

it('a Proof of Delivery change reaches the subscription (events) and the customer (visibility post), signed, as an integrator sees them', async () => {
  const customerSecret = generateWebhookSecret();
  await t.db
    .updateTable('customers')
    .set({ visibility_url: `${receiver.url}/visibility`, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', customerSecret) })
    .where('id', '=', 'cus_heartland')
    .execute();

  // Subscribe and verify over HTTP, answering the challenge like an integrator's endpoint.
  receiver.respond = (request, res) => {
    const body = JSON.parse(request.body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body.challenge ? JSON.stringify({ challenge: body.challenge }) : '{}');
  };
  const created = await t.api('/api/p/v1.0/webhooks', {
    method: 'POST',
    as: 'prairie-integration',
    body: { Name: 'KC documents', Url: `${receiver.url}/hooks`, SubsidiaryId: 'sub_kc', EventTypes: ['document.*', 'load.*'] },
  });
  expect(created.status, created.text).toBe(201);
  const verified = await t.api(`/api/p/v1.0/webhooks/${created.body.Id}/verify`, { method: 'POST', as: 'prairie-integration' });
  expect(verified.body).toMatchObject({ Verified: true, Status: 'Active' });
  receiver.requests.length = 0;

  const patched = await t.api('/api/p/v1.0/loads/L-1001/documents/doc_1001_bol', {
    method: 'PATCH',
    as: 'prairie-integration',
    body: { DocumentType: 'Proof of Delivery' },
  });
  expect(patched.status, patched.text).toBe(200);
  await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();

  const hooks = receiver.requests.filter((r) => r.path === '/hooks').map((r) => verifyDelivery(created.body.Secret, r, t.clock) as any);
  expect(hooks.map((p) => p.type).sort()).toEqual(['document.updated', 'load.changed']);
  const documentEvent = hooks.find((p) => p.type === 'document.updated');
  expect(documentEvent.data.diff.changes).toEqual([{ Field: 'AttachmentType', From: 'Bill of Lading', To: 'Proof of Delivery' }]);

  const posts = receiver.requests.filter((r) => r.path === '/visibility');
  expect(posts).toHaveLength(1);
  const post = verifyDelivery(customerSecret, posts[0]!, t.clock) as any;
  expect(post).toMatchObject({ type: 'document', data: { id: 'doc_1001_bol', AttachmentType: 'Proof of Delivery', LoadNumber: 'L-1001' } });

  const logs = await t.api(`/api/p/v1.0/webhooks/${created.body.Id}/delivery-logs`, { as: 'prairie-integration' });
  expect(logs.body.Items.map((i: any) => i.Status)).toEqual(['success', 'success']);
  const health = await t.api(`/api/p/v1.0/webhooks/${created.body.Id}/health?Days=1`, { as: 'prairie-integration' });
  expect(health.body).toMatchObject({ Status: 'Healthy', Metrics: { TotalAttempts: 2, SuccessRate: 100 } });
});
