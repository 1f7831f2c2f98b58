/**
 * src/client/openapi.ts is generated from openapi.json (`npm run client:types`): regenerated here
 * in memory with openapi-typescript's Node API (openapiTS + astToString, scripts/client-types.mjs),
 * it must be byte for byte the committed file — a change of the document without regenerating
 * fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { clientTypes, clientTypesPath } from '../../scripts/client-types.mjs';
import type { SvcClient, StreamFrame, W3cBody, W3cRedirect } from '../../src/client/index.js';
import type { EnrichedResolution, Problem, TraceStage, operations } from '../../src/client/openapi.js';

/** The JSON body of an operation's 200 answer, as the generated types have it. */
type Ok<K extends keyof operations> = operations[K]['responses'] extends { 200: { content: { 'application/json': infer T } } } ? T : never;
/** The JSON body of an operation's 201 answer. */
type Created<K extends keyof operations> = operations[K]['responses'] extends { 201: { content: { 'application/json': infer T } } } ? T : never;
type Returns<K extends keyof SvcClient> = SvcClient[K] extends (...args: never[]) => Promise<infer T> ? T : never;

describe('src/client/openapi.ts', () => {
  it('is what `npm run client:types` generates from the committed openapi.json', async () => {
    const committed = readFileSync(clientTypesPath, 'utf8');
    const generated = await clientTypes();
    expect(committed.startsWith('// GENERATED FILE')).toBe(true);
    // Not toBe on 120 kB of text: the first differing line says what drifted.
    if (generated !== committed) {
      const a = committed.split('\n');
      const b = generated.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(
        `src/client/openapi.ts differs from the generated text at line ${line + 1}: committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}; run \`npm run client:types\``,
      );
    }
  }, 60_000);

  it('names every operation and component schema of openapi.json', async () => {
    const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    const text = readFileSync(clientTypesPath, 'utf8');
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) expect(text).toContain(`    ${op.operationId}: {`);
    }
    for (const name of Object.keys(doc.components.schemas)) {
      expect(text).toContain(`export type ${name} = components['schemas']['${name}'];`);
    }
  });

  // Checked by tsc (npm run typecheck), not at run time: the client's methods are the
  // operations, each typed with its operation's 200 body from the generated file.
  it('types each SvcClient method with its operation (type-level, checked by tsc)', () => {
    // The session core's operations (session*) are reached only through the in-process cookie
    // gateway with its bridge secret: no client calls them (owners call the gateway instead).
    expectTypeOf<Exclude<keyof operations, keyof SvcClient | `session${string}`>>().toBeNever();
    expectTypeOf<Returns<'health'>>().toEqualTypeOf<Ok<'health'>>();
    expectTypeOf<Returns<'ready'>>().toEqualTypeOf<Ok<'ready'>>();
    expectTypeOf<Returns<'status'>>().toEqualTypeOf<Ok<'status'>>();
    expectTypeOf<Returns<'resolve'>>().toEqualTypeOf<Ok<'resolve'>>();
    expectTypeOf<Returns<'resolve'>>().toEqualTypeOf<operations['resolve']['responses'][410]['content']['application/json']>();
    expectTypeOf<Returns<'dereference'>>().toEqualTypeOf<Ok<'dereference'>>();
    expectTypeOf<Returns<'fastVerifyDid'>>().toEqualTypeOf<Ok<'fastVerifyDid'>>();
    expectTypeOf<Returns<'graph'>>().toEqualTypeOf<Ok<'graph'>>();
    expectTypeOf<Returns<'history'>>().toEqualTypeOf<Ok<'history'>>();
    expectTypeOf<Returns<'diff'>>().toEqualTypeOf<Ok<'diff'>>();
    expectTypeOf<Returns<'verifyCredential'>>().toEqualTypeOf<Ok<'verifyCredential'>>();
    expectTypeOf<Returns<'fastVerifyJws'>>().toEqualTypeOf<Ok<'fastVerifyJws'>>();
    expectTypeOf<Returns<'verifyCredentialVcApi'>>().toEqualTypeOf<Ok<'verifyCredentialVcApi'>>();
    // The VC-API binding's 400 result (verified false) is the same VerificationResult, returned too.
    expectTypeOf<Returns<'verifyCredentialVcApi'>>().toEqualTypeOf<operations['verifyCredentialVcApi']['responses'][400]['content']['application/json']>();
    expectTypeOf<Parameters<SvcClient['verifyCredentialVcApi']>[0]>().toEqualTypeOf<
      operations['verifyCredentialVcApi']['requestBody']['content']['application/json']['verifiableCredential']
    >();
    expectTypeOf<Returns<'verifyPresentation'>>().toEqualTypeOf<Ok<'verifyPresentation'>>();
    expectTypeOf<Parameters<SvcClient['verifyPresentation']>[0]>().toEqualTypeOf<
      operations['verifyPresentation']['requestBody']['content']['application/json']['presentation']
    >();
    expectTypeOf<Returns<'verifyPresentationVcApi'>>().toEqualTypeOf<Ok<'verifyPresentationVcApi'>>();
    expectTypeOf<Returns<'verifyPresentationVcApi'>>().toEqualTypeOf<operations['verifyPresentationVcApi']['responses'][400]['content']['application/json']>();
    expectTypeOf<Parameters<SvcClient['verifyPresentationVcApi']>[0]>().toEqualTypeOf<
      operations['verifyPresentationVcApi']['requestBody']['content']['application/json']['verifiablePresentation']
    >();
    expectTypeOf<Returns<'evaluatePolicy'>>().toEqualTypeOf<Ok<'evaluatePolicy'>>();
    expectTypeOf<Returns<'verifyDelegation'>>().toEqualTypeOf<Ok<'verifyDelegation'>>();
    expectTypeOf<Returns<'authorize'>>().toEqualTypeOf<Ok<'authorize'>>();
    expectTypeOf<Returns<'verifyTool'>>().toEqualTypeOf<Ok<'verifyTool'>>();
    expectTypeOf<Returns<'inspectMcp'>>().toEqualTypeOf<Ok<'inspectMcp'>>();
    expectTypeOf<Returns<'inspectA2a'>>().toEqualTypeOf<Ok<'inspectA2a'>>();
    expectTypeOf<Returns<'createWatch'>>().toEqualTypeOf<Created<'createWatch'>>();
    expectTypeOf<Returns<'listWatches'>>().toEqualTypeOf<Ok<'listWatches'>>();
    expectTypeOf<Returns<'deleteWatch'>>().toEqualTypeOf<void>();
    expectTypeOf<operations['deleteWatch']['responses'][204]['content']>().toEqualTypeOf<undefined>();
    expectTypeOf<Returns<'listMonitorEvents'>>().toEqualTypeOf<Ok<'listMonitorEvents'>>();
    expectTypeOf<Returns<'monitoringStatus'>>().toEqualTypeOf<Ok<'monitoringStatus'>>();
    expectTypeOf<Parameters<SvcClient['createWatch']>[0]>().toEqualTypeOf<operations['createWatch']['requestBody']['content']['application/json']>();
    expectTypeOf<Parameters<SvcClient['deleteWatch']>[0]>().toEqualTypeOf<operations['deleteWatch']['parameters']['path']['id']>();
    expectTypeOf<Returns<'resolveW3c'>>().toEqualTypeOf<W3cBody>();
    expectTypeOf<Returns<'resolveW3cPost'>>().toEqualTypeOf<W3cBody>();
    expectTypeOf<W3cBody>().toEqualTypeOf<
      operations['resolveW3cPost']['responses'][200]['content'][keyof operations['resolveW3cPost']['responses'][200]['content']] | W3cRedirect
    >();
    expectTypeOf<Parameters<SvcClient['evaluatePolicy']>[0]>().toEqualTypeOf<operations['evaluatePolicy']['requestBody']['content']['application/json']>();
    expectTypeOf<Parameters<SvcClient['verifyDelegation']>[0]>().toEqualTypeOf<operations['verifyDelegation']['requestBody']['content']['application/json']>();
    expectTypeOf<Parameters<SvcClient['authorize']>[0]>().toEqualTypeOf<operations['authorize']['requestBody']['content']['application/json']>();
    expectTypeOf<ReturnType<SvcClient['stream']>>().toEqualTypeOf<AsyncGenerator<StreamFrame, void, undefined>>();
    expectTypeOf<Extract<StreamFrame, { event: 'stage' }>['data']>().toEqualTypeOf<TraceStage>();
    expectTypeOf<Extract<StreamFrame, { event: 'result' }>['data']>().toEqualTypeOf<EnrichedResolution>();
    expectTypeOf<Extract<StreamFrame, { event: 'error' }>['data']>().toEqualTypeOf<Problem>();
  });
});
