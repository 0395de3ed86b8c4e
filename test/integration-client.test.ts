import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem, FreightApi, walkTrip } from '../examples/integration-client.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function client(): FreightApi {
  return new FreightApi({
    apiUrl: t.apiUrl,
    authUrl: t.authUrl,
    clientId: 'prairie-integration',
    clientSecret: secretOf('prairie-integration'),
    audience: AUDIENCE,
    now: () => t.clock.now().getTime(),
  });
}

describe('examples/integration-client.ts', () => {
  it('walks a trip as an integrator would, with one token', async () => {
    const api = client();
    const result = await walkTrip(api);
    expect(result.stopStatusBefore).toBe('Open');
    // 08:05 in Chicago on 22 November (CST, UTC-6) is 14:05 UTC.
    expect(result.stopAfterArrival).toMatchObject({ Status: 'Arrived', ArrivedAt: '2026-11-22T14:05:00.000Z' });
    expect(result.reference.Value).toBe('SEAL-0042');
    expect(result.updatedReference.Value).toBe('SEAL-0043');
    expect(result.documentType).toBe('Proof of Delivery');
    expect(result.downloaded).toEqual({ contentType: 'application/pdf', bytes: 15 });
    expect(api.tokenRequests).toBe(1);
  });

  it('can be run again on the same data (the seal reference already exists)', async () => {
    const again = await walkTrip(client());
    expect(again.stopAfterArrival.Status).toBe('Arrived');
    expect(again.reference.Value).toBe('SEAL-0042');
    expect(again.updatedReference.Value).toBe('SEAL-0043');
    expect(again.documentType).toBe('Proof of Delivery');
  });

  it('renews the token only when it is about to expire', async () => {
    const api = client();
    await api.call('GET', '/trips/trp_1001_a');
    t.clock.advance(3600_000);
    await api.call('GET', '/trips/trp_1001_a');
    expect(api.tokenRequests).toBe(1);
    t.clock.advance(86_400_000);
    await api.call('GET', '/trips/trp_1001_a');
    expect(api.tokenRequests).toBe(2);
  });

  it('surfaces problem bodies', async () => {
    const error = await client()
      .call('PUT', '/trips/trp_1001_a/stops/stp_1001_2/arrival', { body: { ArrivedAt: '11/22/2026' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect((error as ApiProblem).status).toBe(400);
    expect((error as ApiProblem).problem.Errors).toHaveProperty('ArrivedAt');
  });
});
