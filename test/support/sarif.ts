/**
 * Validating svc's SARIF logs (src/cli/cmd/inspect/sarif.ts), three ways:
 *
 * - SARIF_SUBSET below, with ajv: written here from the specification's object and property names
 *   for the parts svc writes, closed (additionalProperties false) wherever the specification's
 *   schema is, with its required members, enumerations and formats;
 * - the SARIF 2.1.0 schema the SARIF SDK ships (`sarif-2.1.0.json` in
 *   @microsoft/sarif-multitool-linux, a JSON Schema 2020-12 rendering of the OASIS schema), with ajv;
 * - Microsoft's SARIF Multitool itself (`Sarif.Multitool validate`, the SDK's validator, run as a
 *   process): the schema and the SARIF rules (SARIF1xxx, SARIF2xxx) — multitoolFindings.
 *
 * When SVC_SARIF_SCHEMA names a copy of the OASIS file (sarif-schema-2.1.0.json, draft-04, hence
 * ajv-draft-04), that is checked as well.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv as Ajv2019 } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

const message = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string', minLength: 1 } } };
const mcString = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' }, markdown: { type: 'string' } } };
const propertyBag = { type: 'object', properties: { tags: { type: 'array', uniqueItems: true, items: { type: 'string' } } } };
const level = { enum: ['none', 'note', 'warning', 'error'] };

/** The SARIF 2.1.0 objects svc writes, as SARIF 2.1.0 §3.13 – §3.58 constrain them. */
export const SARIF_SUBSET = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'runs'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    version: { const: '2.1.0' },
    runs: { type: 'array', items: { $ref: '#/definitions/run' } },
  },
  definitions: {
    run: {
      type: 'object',
      additionalProperties: false,
      required: ['tool'],
      properties: {
        tool: {
          type: 'object',
          additionalProperties: false,
          required: ['driver'],
          properties: { driver: { $ref: '#/definitions/toolComponent' } },
        },
        invocations: { type: 'array', items: { $ref: '#/definitions/invocation' } },
        results: { type: ['array', 'null'], items: { $ref: '#/definitions/result' } },
        properties: propertyBag,
      },
    },
    toolComponent: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string' },
        version: { type: 'string' },
        semanticVersion: { type: 'string' },
        informationUri: { type: 'string', format: 'uri' },
        rules: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/reportingDescriptor' } },
      },
    },
    reportingDescriptor: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        shortDescription: mcString,
        fullDescription: mcString,
        help: mcString,
        defaultConfiguration: {
          type: 'object',
          additionalProperties: false,
          properties: { enabled: { type: 'boolean' }, level, rank: { type: 'number', minimum: -1, maximum: 100 } },
        },
        properties: propertyBag,
      },
    },
    invocation: {
      type: 'object',
      additionalProperties: false,
      required: ['executionSuccessful'],
      properties: {
        executionSuccessful: { type: 'boolean' },
        exitCode: { type: 'integer' },
        toolExecutionNotifications: { type: 'array', items: { $ref: '#/definitions/notification' } },
      },
    },
    notification: {
      type: 'object',
      additionalProperties: false,
      required: ['message'],
      properties: {
        message,
        level,
        descriptor: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' }, index: { type: 'integer', minimum: -1 } } },
      },
    },
    result: {
      type: 'object',
      additionalProperties: false,
      required: ['message'],
      properties: {
        ruleId: { type: 'string' },
        ruleIndex: { type: 'integer', minimum: -1 },
        level,
        message,
        locations: { type: 'array', items: { $ref: '#/definitions/location' } },
        partialFingerprints: { type: 'object', additionalProperties: { type: 'string' } },
        suppressions: {
          type: 'array',
          uniqueItems: true,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['kind'],
            properties: {
              kind: { enum: ['inSource', 'external'] },
              status: { enum: ['accepted', 'underReview', 'rejected'] },
              justification: { type: 'string' },
            },
          },
        },
        properties: propertyBag,
      },
    },
    location: {
      type: 'object',
      additionalProperties: false,
      properties: {
        physicalLocation: {
          type: 'object',
          additionalProperties: false,
          required: ['artifactLocation'],
          properties: {
            artifactLocation: {
              type: 'object',
              additionalProperties: false,
              properties: { uri: { type: 'string', format: 'uri-reference' }, uriBaseId: { type: 'string' } },
            },
            region: {
              type: 'object',
              additionalProperties: false,
              required: ['startLine'],
              properties: {
                startLine: { type: 'integer', minimum: 1 },
                startColumn: { type: 'integer', minimum: 1 },
                endLine: { type: 'integer', minimum: 1 },
                endColumn: { type: 'integer', minimum: 1 },
              },
            },
          },
        },
        logicalLocations: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { name: { type: 'string' }, fullyQualifiedName: { type: 'string' }, kind: { type: 'string' } },
          },
        },
      },
    },
  },
} as const;

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

function subsetValidator(): Validate {
  const ajv = new Ajv2019({ allErrors: true, strict: true });
  addFormats.default(ajv);
  return ajv.compile(SARIF_SUBSET);
}

/** The official schema, when SVC_SARIF_SCHEMA names a copy of sarif-schema-2.1.0.json (draft-04). */
function officialValidator(): Validate | null {
  const file = process.env['SVC_SARIF_SCHEMA'];
  if (!file) return null;
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(file, 'utf8')));
}

/** The directory of the SARIF SDK's Multitool for Linux (an optional dependency of @microsoft/sarif-multitool). */
function multitoolDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@microsoft/sarif-multitool-linux/package.json'));
}

/** The SARIF 2.1.0 schema the SARIF SDK ships beside its Multitool (JSON Schema 2020-12). */
function sdkValidator(): Validate {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(path.join(multitoolDir(), 'sarif-2.1.0.json'), 'utf8')));
}

/**
 * What Microsoft's SARIF Multitool (`validate`) finds in these logs — schema errors (JSON1xxx) and
 * the SARIF rules' errors, warnings and notes — as `ruleId level: message` lines; [] when nothing.
 */
export async function multitoolFindings(logs: readonly unknown[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-sarif-'));
  try {
    const files = logs.map((log, index) => {
      const file = path.join(dir, `log-${index}.sarif`);
      writeFileSync(file, JSON.stringify(log));
      return file;
    });
    const output = path.join(dir, 'validation.sarif');
    await promisify(execFile)(path.join(multitoolDir(), 'Sarif.Multitool'), ['validate', ...files, '--output', output], {
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
      timeout: 120_000,
    });
    const validation = JSON.parse(readFileSync(output, 'utf8')) as {
      runs: Array<{
        results?: Array<{
          ruleId: string;
          level?: string;
          message: { text?: string; arguments?: string[] };
          locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }>;
        }>;
      }>;
    };
    return (validation.runs[0]?.results ?? []).map((r) => {
      const where = r.locations?.[0]?.physicalLocation?.artifactLocation?.uri?.split('/').at(-1) ?? '?';
      return `${where} ${r.ruleId} ${r.level ?? 'warning'}: ${r.message.text ?? (r.message.arguments ?? []).join(' | ')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let validators: Array<[string, Validate]> | undefined;

/** Whether the official schema takes part (SVC_SARIF_SCHEMA). */
export const officialSchemaInUse = (): boolean => Boolean(process.env['SVC_SARIF_SCHEMA']);

/** Asserts `log` is valid against the subset and the SARIF SDK's schema (and the OASIS file when given); returns it. */
export function expectValidSarif(log: any): any {
  validators ??= [
    ['subset', subsetValidator()] as [string, Validate],
    ['SARIF SDK', sdkValidator()] as [string, Validate],
    ...((v) => (v ? [['official', v] as [string, Validate]] : []))(officialValidator()),
  ];
  for (const [name, validate] of validators) expect(validate(log) ? [] : validate.errors, `${name} schema`).toEqual([]);
  return log;
}
