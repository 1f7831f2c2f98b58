/**
 * The JSON Schema of svc.config.json, made with TypeBox from the one key table (config-keys.ts)
 * and the environment table's descriptions: editors complete and check the file from it through
 * its "$schema" member. `npm run docs` writes it to svc.config.schema.json (scripts/gen-docs.ts),
 * and test/unit/docs-generated.test.ts holds the committed file to it. The CLI never loads this
 * module: config-file.ts checks the same table by hand, and the tests hold the two to agree.
 */
import Type, { type TSchema } from 'typebox';
import { CONFIG_KEYS, configSections, type ConfigKey } from './config-keys.js';
import { ENVIRONMENT } from './environment.js';

export const CONFIG_SCHEMA_ID = 'https://unpkg.com/svc-evidence/svc.config.schema.json';

function description(k: ConfigKey): string {
  const variable = ENVIRONMENT.find((v) => v.name === k.variable);
  const what = variable !== undefined ? `${variable.description} (default: ${variable.default})` : '';
  const file = k.kind.type === 'secret-file' ? 'A file of mode 0600 or stricter holding it, relative to this file: ' : '';
  return `${file}${what}. Sets ${k.variable}${k.flag !== undefined ? `; ${k.flag} overrides it` : ''}; the environment overrides it.`;
}

function valueSchema(k: ConfigKey): TSchema {
  const options = { description: description(k) };
  switch (k.kind.type) {
    case 'string':
      return Type.String({ ...options, minLength: 1 });
    case 'integer':
      return Type.Integer({ ...options, minimum: k.kind.minimum });
    case 'integers':
      return Type.Array(Type.Integer({ minimum: 1 }), { ...options, minItems: 1 });
    case 'list':
      return Type.Array(Type.String({ pattern: '^[^,]*[^,\\s][^,]*$' }), options);
    case 'boolean':
      return Type.Boolean(options);
    case 'enum':
      return Type.Enum([...k.kind.values], options);
    case 'path':
    case 'secret-file':
      return Type.String({ ...options, minLength: 1 });
  }
}

/** The schema: every section optional, every key optional, nothing else allowed. */
export function configSchema(): TSchema {
  const sections = Object.fromEntries(
    configSections().map((section) => [
      section,
      Type.Optional(
        Type.Object(
          Object.fromEntries(
            CONFIG_KEYS.filter((k) => k.key.startsWith(`${section}.`)).map((k) => [k.key.slice(section.length + 1), Type.Optional(valueSchema(k))]),
          ),
          { additionalProperties: false },
        ),
      ),
    ]),
  );
  return Type.Object(
    { $schema: Type.Optional(Type.String({ description: 'The URL or path of this schema, for editors.' })), ...sections },
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: CONFIG_SCHEMA_ID,
      title: 'svc.config.json',
      description:
        "svc's settings a team shares: each key sets one environment variable, which the environment and then the flags override. Secrets stay in the environment or in files named by path.",
      additionalProperties: false,
    },
  );
}

/** The committed file's text. */
export function configSchemaText(): string {
  return `${JSON.stringify(configSchema(), null, 2)}\n`;
}
