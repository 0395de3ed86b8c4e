import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.js';
import {
  exampleOf,
  isIntegerParam,
  operationsOf,
  snapshotDatabase,
  textFieldsOf,
  withValueAt,
  type DocOperation,
} from './support/hostile-cases.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * The shared hostile-input cases (issue 12), run over every operation of the OpenAPI document
 * on both databases: text the databases cannot or should not hold (NUL and the other C0
 * controls, unpaired surrogates, bad percent-encoding, bytes that are not UTF-8) in each path
 * id, query parameter and body string; integers in lenient forms; an empty body where one is
 * expected. Each gets its 4xx, the same on SQLite and Postgres, and the database is unchanged.
 */

let t: TestApp;
let doc: Record<string, any>;
let operations: DocOperation[];
const as = 'tn_prairie-all';
const kind = testDatabaseKind();

// Loaded at collection time: the cases are made from the document the server serves.
const documentPromise = (async () => {
  t = await startTestApp();
  doc = (await t.api('/openapi.json')).body;
  operations = operationsOf(doc);
  return operations;
})();
const collected = await documentPromise;

afterAll(async () => {
  await t?.close();
});

/** Hostile path-segment values, as sent (already percent-encoded). */
const HOSTILE_SEGMENTS: Record<string, string> = {
  NUL: 'x%00',
  'a C0 control': 'x%01y',
  'escape': '%1Bx',
  'a CESU-encoded lone surrogate': 'x%ED%A0%80',
  'bad percent-encoding': 'x%E2%28',
};

/** Hostile texts inside JSON strings (the JSON text carries them as \u escapes). */
const HOSTILE_TEXTS: Record<string, string> = {
  NUL: 'Probe\u0000',
  'a C0 control': 'Pro\u0007be',
  'a lone high surrogate': 'Probe\ud800',
  'a lone low surrogate': '\udfffProbe',
};

const LENIENT_INTEGERS = ['0x10', '0b11', '1e1', '+5', ' 5', '5.0', '\uFEFF5', '05 ', '١'];

function pathOf(operation: DocOperation, values: Record<string, string>): string {
  let path = `/api/p/v1.0${operation.template}`;
  for (const name of operation.pathParams) path = path.replace(`{${name}}`, values[name] ?? plainValue(operation, name));
  return path;
}

/** A well-formed value that names no record (or no known kind, for enum parameters). */
function plainValue(operation: DocOperation, name: string): string {
  const parameter = doc.paths[`/api/p/v{version}${operation.template}`][operation.method.toLowerCase()].parameters.find(
    (p: any) => p.name === name && p.in === 'path',
  );
  const schema = parameter?.schema ?? {};
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number') return '987654321';
  return 'no-such-record-zz9';
}

function withoutInstance(body: any) {
  if (!body || typeof body !== 'object') return body;
  const { Instance: _instance, ...rest } = body;
  return rest;
}

function exampleBody(operation: DocOperation): unknown {
  return operation.body ? exampleOf(doc, operation.body) : undefined;
}

describe.each(collected.map((operation) => [`${operation.method} ${operation.template}`, operation] as const))(
  '%s: hostile input',
  (_name, operation) => {
    let before: Record<string, string>;
    beforeAll(async () => {
      before = await snapshotDatabase(t.db, kind);
    });
    afterAll(async () => {
      // Every case below is refused: nothing may have been written.
      expect(await snapshotDatabase(t.db, kind)).toEqual(before);
    });

    it('answers a hostile version in the path as an unsupported version', async () => {
      for (const [label, segment] of Object.entries(HOSTILE_SEGMENTS)) {
        const path = pathOf(operation, {}).replace('/v1.0/', `/v${segment}/`);
        const response = await t.api(path, { method: operation.method, as, body: exampleBody(operation) });
        expect([label, response.status, response.body?.Type]).toEqual([label, 400, expect.stringMatching(/UnsupportedApiVersion$/)]);
      }
    });

    for (const name of operation.pathParams) {
      it(`answers a hostile ${name} exactly as an unknown ${name}`, async () => {
        const body = exampleBody(operation);
        const plain = await t.api(pathOf(operation, {}), { method: operation.method, as, body });
        expect(plain.status, plain.text).toBeGreaterThanOrEqual(400);
        expect(plain.status, plain.text).toBeLessThan(500);
        for (const [label, segment] of Object.entries(HOSTILE_SEGMENTS)) {
          const hostile = await t.api(pathOf(operation, { [name]: segment }), { method: operation.method, as, body });
          expect([label, hostile.status, withoutInstance(hostile.body)]).toEqual([label, plain.status, withoutInstance(plain.body)]);
        }
      });
    }

    for (const parameter of operation.queryParams) {
      it(`refuses hostile text in the query parameter ${parameter.name} with a 400 naming it`, async () => {
        const encodedTexts = { NUL: 'x%00', 'a C0 control': '%01', 'a CESU-encoded lone surrogate': '%ED%A0%80', 'bad percent-encoding': '%E2%28' };
        for (const [label, value] of Object.entries(encodedTexts)) {
          const response = await t.api(`${pathOf(operation, {})}?${encodeURIComponent(parameter.name)}=${value}`, { method: operation.method, as });
          expect([label, response.status]).toEqual([label, 400]);
          expect(Object.keys(response.body.Errors ?? {}), `${label}: ${response.text}`).toContain(parameter.name);
        }
      });

      if (isIntegerParam(doc, parameter.schema)) {
        it(`refuses lenient integer forms of ${parameter.name} with a 400 naming it`, async () => {
          for (const value of LENIENT_INTEGERS) {
            const response = await t.api(`${pathOf(operation, {})}?${parameter.name}=${encodeURIComponent(value)}`, { method: operation.method, as });
            expect([value, response.status]).toEqual([value, 400]);
            expect(Object.keys(response.body.Errors ?? {}), response.text).toContain(parameter.name);
          }
        });
      }
    }

    const integerPathParams = operation.pathParams.filter((name) => plainValue(operation, name) === '987654321');
    for (const name of integerPathParams) {
      it(`answers lenient integer forms of ${name} exactly as an unknown ${name}`, async () => {
        const plain = await t.api(pathOf(operation, {}), { method: operation.method, as, body: exampleBody(operation) });
        for (const value of LENIENT_INTEGERS) {
          const response = await t.api(pathOf(operation, { [name]: encodeURIComponent(value) }), { method: operation.method, as, body: exampleBody(operation) });
          expect([value, response.status, withoutInstance(response.body)]).toEqual([value, plain.status, withoutInstance(plain.body)]);
        }
      });
    }

    if (operation.body) {
      const fields = textFieldsOf(doc, operation.body);
      for (const field of fields) {
        it(`refuses hostile text in the body field ${field.field} with a 400 naming it`, async () => {
          for (const [label, text] of Object.entries(HOSTILE_TEXTS)) {
            const body = withValueAt(exampleBody(operation) ?? {}, field.path, text);
            const response = await t.api(pathOf(operation, {}), { method: operation.method, as, body });
            expect([label, response.status]).toEqual([label, 400]);
            expect(Object.keys(response.body.Errors ?? {}), `${label}: ${response.text}`).toContain(field.field);
          }
        });
      }

      it('refuses hostile text in a property name with a 400', async () => {
        const body = { ...(exampleBody(operation) as object), 'Probe\u0000': 'x' };
        const response = await t.api(pathOf(operation, {}), { method: operation.method, as, body });
        expect(response.status, response.text).toBe(400);
        expect(Object.keys(response.body.Errors)).toContain('Probe\u0000');
      });

      it('refuses a body that is not UTF-8 with a 400', async () => {
        const json = Buffer.from(JSON.stringify(exampleBody(operation) ?? {}), 'utf8');
        // A string value's first byte replaced by 0xFF, which never occurs in UTF-8.
        const bytes = Buffer.concat([Buffer.from('{"Probe":"'), Buffer.from([0xff, 0xfe]), Buffer.from('",'), json.subarray(1)]);
        const response = await fetch(t.apiUrl + pathOf(operation, {}), {
          method: operation.method,
          headers: { authorization: `Bearer ${await t.token(as)}`, 'content-type': 'application/json' },
          body: json.length > 2 ? bytes : Buffer.concat([Buffer.from('{"Probe":"'), Buffer.from([0xff]), Buffer.from('"}')]),
        });
        const problem = (await response.json()) as any;
        expect(response.status).toBe(400);
        expect(problem.Detail).toMatch(/UTF-8/);
      });

      if (operation.bodyRequired) {
        it('refuses an empty body with a 400', async () => {
          for (const headers of [{ 'content-type': 'application/json' }, {} as Record<string, string>]) {
            const response = await fetch(t.apiUrl + pathOf(operation, {}), {
              method: operation.method,
              headers: { authorization: `Bearer ${await t.token(as)}`, ...headers },
            });
            const problem = (await response.json()) as any;
            expect(response.status).toBe(400);
            expect(problem.Errors).toHaveProperty('$');
          }
        });
      }
    }
  },
);

describe('hostile input: the whole surface', () => {
  it('covers every operation of the document', () => {
    expect(collected.length).toBeGreaterThanOrEqual(93);
    expect(collected.filter((o) => o.body).length).toBeGreaterThanOrEqual(40);
  });

  it('refuses a control character in a header that reaches the core (If-Match) with a 400', async () => {
    const token = await t.token(as);
    const url = new URL(t.apiUrl);
    // fetch and Node's client refuse to send such a header; write the request by hand.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `DELETE /api/p/v1.0/webhooks/no-such-webhook HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
            'If-Match: "v\u0001"\r\nConnection: close\r\n\r\n',
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('refuses hostile text in token requests (JSON, form and Basic) with invalid_request, and answers a hostile download link as an unknown one', async () => {
    const ask = (body: string, headers: Record<string, string>) =>
      fetch(`${t.authUrl}/oauth/token`, { method: 'POST', headers, body }).then(async (r) => [r.status, ((await r.json()) as any).error]);
    const fields = { client_secret: 'secret-tn_prairie-all', audience: t.config.audience, grant_type: 'client_credentials' };
    for (const clientId of ['tn_prairie-all\u0000', 'tn_prairie\ud800-all', '\u0001']) {
      expect(await ask(JSON.stringify({ ...fields, client_id: clientId }), { 'content-type': 'application/json' })).toEqual([400, 'invalid_request']);
    }
    expect(await ask(`client_id=a%00b&client_secret=s&audience=a&grant_type=client_credentials`, { 'content-type': 'application/x-www-form-urlencoded' })).toEqual([
      400,
      'invalid_request',
    ]);
    const basic = Buffer.from('tn_prairie-all\u0000:secret').toString('base64');
    expect(
      await ask(`audience=${encodeURIComponent(t.config.audience)}&grant_type=client_credentials`, {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${basic}`,
      }),
    ).toEqual([400, 'invalid_request']);

    const unknown = await fetch(`${t.apiUrl}/files/no-such-link`);
    const unknownBody = withoutInstance(await unknown.json());
    expect(unknown.status).toBe(404);
    for (const segment of Object.values(HOSTILE_SEGMENTS)) {
      const hostile = await fetch(`${t.apiUrl}/files/${segment}`);
      expect([segment, hostile.status, withoutInstance(await hostile.json())]).toEqual([segment, unknown.status, unknownBody]);
    }
  });

  it('refuses hostile text in tRPC input with BAD_REQUEST naming the field, before any procedure runs', async () => {
    const before = await snapshotDatabase(t.db, kind);
    const token = await t.token(as);
    const body = JSON.stringify({ Name: 'Probe\u0000', Url: 'https://hooks.example.com/x', EventTypes: ['Load.Created'] });
    const response = await fetch(`${t.apiUrl}/api/trpc/webhooks.createWebhook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const answer = (await response.json()) as any;
    expect(response.status, JSON.stringify(answer)).toBe(400);
    expect(answer.error.data.code).toBe('BAD_REQUEST');
    const query = await fetch(`${t.apiUrl}/api/trpc/subsidiaries.getSubsidiary?input=${encodeURIComponent(JSON.stringify({ id: 'sub\ud800' }))}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(query.status).toBe(400);
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  });
});
