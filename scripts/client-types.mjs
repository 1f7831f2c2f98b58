// `npm run client:types`: writes src/client/openapi.ts, the TypeScript types of the API client,
// generated from the committed openapi.json by openapi-typescript (its Node API: openapiTS, then
// astToString). test/unit/client-types.test.ts regenerates the text in memory with
// clientTypes() and fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const documentUrl = new URL('../openapi.json', import.meta.url);
export const clientTypesPath = fileURLToPath(new URL('../src/client/openapi.ts', import.meta.url));

/** The text of src/client/openapi.ts: a header, then openapi-typescript's output for openapi.json. */
export async function clientTypes() {
  const { version } = JSON.parse(readFileSync(new URL('../node_modules/openapi-typescript/package.json', import.meta.url), 'utf8'));
  const document = JSON.parse(readFileSync(documentUrl, 'utf8'));
  const ast = await openapiTS(document, { silent: true, rootTypes: true, rootTypesNoSchemaPrefix: true });
  const header = [
    '// GENERATED FILE: do not edit. The types of the svc API client, generated from openapi.json',
    `// by openapi-typescript ${version} (Node API: openapiTS + astToString) with \`npm run client:types\``,
    '// (scripts/client-types.mjs). test/unit/client-types.test.ts fails when this file differs from',
    '// what that command writes.',
    '',
  ].join('\n');
  return header + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await clientTypes();
  writeFileSync(clientTypesPath, text);
  process.stdout.write(`src/client/openapi.ts: ${Buffer.byteLength(text)} bytes\n`);
}
