/**
 * src/client/openapi.ts is generated from openapi.json (`npm run client:types`): regenerated here
 * in memory with openapi-typescript's Node API (openapiTS + astToString, scripts/client-types.mjs),
 * it must be byte for byte the committed file — a change of the document without regenerating
 * fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypes, clientTypesPath } from '../../scripts/client-types.mjs';

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
      expect.fail(`src/client/openapi.ts differs from the generated text at line ${line + 1}: committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}; run \`npm run client:types\``);
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
});
