/**
 * The contract hook of test/support/daemon-client.ts: answers are held to an OpenAPI document —
 * status documented, content type documented, JSON body valid against the schema ($refs into
 * components.schemas), undocumented routes answered with problems only. A small document here;
 * the committed openapi.json as well (the hook loads it for every daemon suite).
 */
import { describe, expect, it } from 'vitest';
import { Contract, ContractError, repoContract, type Answer, type OpenApiDocument } from '../support/daemon-client.js';

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, code: { type: 'string' } },
  additionalProperties: false,
};
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  components: {
    schemas: {
      Problem: problemSchema,
      Thing: {
        type: 'object',
        required: ['id', 'state', 'note'],
        properties: { id: { type: 'string' }, state: { enum: ['ok', 'bad'] }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
        additionalProperties: false,
      },
    },
  },
  paths: {
    '/v1/things/{did}': {
      get: {
        responses: {
          200: { description: 'a thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          400: problemResponse('bad'),
        },
      },
    },
    '/v1/things/special': {
      get: { responses: { 200: { description: 'text', content: { 'text/event-stream': { schema: { type: 'string' } } } } } },
    },
    '/health': { get: { responses: { 204: { description: 'nothing' } } } },
  },
};

function answer(status: number, contentType: string, body: unknown): Pick<Answer, 'status' | 'header' | 'text'> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, header: (name) => (name.toLowerCase() === 'content-type' ? contentType : ''), text };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM = 'application/problem+json; charset=utf-8';
const base = 'http://127.0.0.1:1';
const problem = { type: 'https://x/#NOT_FOUND', title: 'Not found', status: 404, detail: 'No route.', code: 'NOT_FOUND' };

describe('the contract hook', () => {
  const contract = new Contract(doc);

  it('passes a right answer: documented status, content type and a valid body', () => {
    expect(() =>
      contract.check('GET', `${base}/v1/things/did:web:a.example:b%2Fc?x=1`, answer(200, JSON_TYPE, { id: 'a', state: 'ok', note: null })),
    ).not.toThrow();
    expect(() => contract.check('GET', `${base}/v1/things/did:key:z6/with/slashes`, answer(400, PROBLEM, { ...problem, status: 400 }))).not.toThrow();
    expect(() => contract.check('GET', `${base}/v1/things/special`, answer(200, 'text/event-stream', 'event: done\ndata: {}\n\n'))).not.toThrow();
    expect(() => contract.check('GET', `${base}/health`, answer(204, '', ''))).not.toThrow();
    expect(() => contract.check('HEAD', `${base}/v1/things/x`, answer(200, JSON_TYPE, ''))).not.toThrow();
    expect(() => contract.check('GET', `${base}/nowhere`, answer(404, PROBLEM, problem))).not.toThrow();
    expect(() => contract.check('OPTIONS', `${base}/v1/things/x`, answer(204, '', ''))).not.toThrow();
  });

  it('fails a body with a missing member, naming route, status and the schema error', () => {
    const wrong = () => contract.check('GET', `${base}/v1/things/did:key:z6`, answer(200, JSON_TYPE, { id: 'a', state: 'ok' }));
    expect(wrong).toThrow(ContractError);
    expect(wrong).toThrow(/GET \/v1\/things\/\{did\} → 200: the body does not match the schema:[\s\S]*must have required property 'note'/);
  });

  it('fails a value outside an enumeration and an extra member', () => {
    expect(() => contract.check('GET', `${base}/v1/things/x`, answer(200, JSON_TYPE, { id: 'a', state: 'maybe', note: 'n' }))).toThrow(
      /\/state must be equal to one of the allowed values/,
    );
    expect(() => contract.check('GET', `${base}/v1/things/x`, answer(200, JSON_TYPE, { id: 'a', state: 'ok', note: 'n', extra: 1 }))).toThrow(
      /must NOT have additional properties/,
    );
  });

  it('fails an undocumented status, an undocumented content type, a body that is not JSON', () => {
    expect(() => contract.check('GET', `${base}/v1/things/x`, answer(500, PROBLEM, { ...problem, status: 500 }))).toThrow(
      /→ 500: status 500 is not documented \(documented: 200, 400\)/,
    );
    expect(() => contract.check('GET', `${base}/v1/things/x`, answer(200, 'text/plain', 'hi'))).toThrow(/content type text\/plain is not documented/);
    expect(() => contract.check('GET', `${base}/v1/things/x`, answer(200, JSON_TYPE, '{"id":'))).toThrow(/the body is not JSON/);
    expect(() => contract.check('GET', `${base}/health`, answer(204, '', 'x'))).toThrow(/a body was sent/);
  });

  it('holds answers outside the document to the problem object', () => {
    expect(() => contract.check('GET', `${base}/nowhere`, answer(200, JSON_TYPE, {}))).toThrow(/undocumented route answered with a success/);
    expect(() => contract.check('POST', `${base}/health`, answer(405, JSON_TYPE, problem))).toThrow(/is not application\/problem\+json/);
    expect(() => contract.check('GET', `${base}/nowhere`, answer(404, PROBLEM, { ...problem, code: undefined }))).toThrow(/must have required property 'code'/);
  });

  it('loads the committed openapi.json and holds answers to it', () => {
    const repo = repoContract();
    expect(repo.templateOf('/openapi.json')).toBe('/openapi.json');
    expect(() => repo.check('GET', `${base}/openapi.json`, answer(200, JSON_TYPE, { openapi: '3.1.0', info: {}, paths: {} }))).not.toThrow();
    expect(() => repo.check('GET', `${base}/openapi.json`, answer(200, JSON_TYPE, { openapi: '3.0.3', info: {}, paths: {} }))).toThrow(ContractError);
    expect(() => repo.check('GET', `${base}/nowhere`, answer(404, PROBLEM, problem))).not.toThrow();
  });
});
