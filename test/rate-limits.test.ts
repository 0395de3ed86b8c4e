import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointRuleCount } from '../adapters/rest/rate-rules.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMITS: 'on' } });
});
afterAll(async () => {
  await t?.close();
});

describe('rate limits', () => {
  it('configures all 26 endpoint rules of spec section 8', () => {
    expect(endpointRuleCount).toBe(26);
  });

  it('limits one token to 10 requests a second with Retry-After and RateLimit headers', async () => {
    const token = await t.token('prairie-readonly');
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${t.apiUrl}/api/p/v1.0/subsidiaries/sub_kc`, { headers: { authorization: `Bearer ${token}` } });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else expect(response.headers.get('ratelimit')).toMatch(/^"token";r=\d+;t=\d+$/);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses).toContain(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get('ratelimit-policy')).toBe('"token";q=10;w=1');
    expect(limited!.headers.get('content-type')).toBe('application/problem+json');
    expect(((await limited!.json()) as { Type: string }).Type).toBe(`${t.apiUrl}/errors/RateLimited`);
  });

  it('applies the default rule to other /api/ paths per client IP, before the route lookup', async () => {
    const first = await t.api('/api/unknown');
    expect(first.status).toBe(404);
    const second = await t.api('/api/unknown-too');
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
