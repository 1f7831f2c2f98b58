/**
 * Which events a check of an MCP or A2A watch means (src/core/monitoring/target-events.ts):
 * nothing on the first check, one inventory or card change naming the items and the members that
 * differ, a failure once, a recovery once, changes against the last good snapshot.
 */
import { describe, expect, it } from 'vitest';
import { jcsSha256 } from '../../src/core/canonical.js';
import type { JsonObject } from '../../src/core/encoding/json.js';
import type { McpBaselineServer } from '../../src/core/mcp/baseline.js';
import { failedOutcome } from '../../src/core/monitoring/check.js';
import { plannedTargetEvents, snapshotOutcome, type A2aSnapshot } from '../../src/core/monitoring/target-events.js';
import { ProblemError } from '../../src/core/problems.js';
import type { CheckOutcome } from '../../src/core/store.js';

const ENDPOINT = 'https://tools.example/mcp';
const CARD = 'https://agent.example/.well-known/agent-card.json';
const item = (definition: JsonObject) => ({ definition, definitionSha256: jcsSha256(definition) });

function server(tools: Record<string, string>, prompts: string[] = []): McpBaselineServer {
  return {
    target: ENDPOINT,
    serverInfo: { name: 'demo', version: '1.0.0' },
    instructions: null,
    tools: Object.fromEntries(Object.entries(tools).map(([name, description]) => [name, item({ name, description, inputSchema: { type: 'object' } })])),
    prompts: Object.fromEntries(prompts.map((name) => [name, item({ name, description: `${name} prompt` })])),
    resources: {},
    resourceTemplates: {},
  };
}

function card(kid: string, thumbprint: string, skills: string[] = ['search'], signatureStatus: string | null = 'PASS'): A2aSnapshot {
  const c: JsonObject = {
    name: 'Agent',
    version: '1.0.0',
    supportedInterfaces: [{ url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    skills: skills.map((id) => ({ id, name: id, description: `${id} skill`, tags: [] })),
  };
  return {
    cardUrl: CARD,
    canonicalSha256: jcsSha256(c),
    card: c,
    signingKeys: { [kid]: { alg: 'ES256', jku: null, keyThumbprint: thumbprint } },
    signatureStatus,
  };
}

const at = (minute: number) => `2026-11-27T00:${String(minute).padStart(2, '0')}:00Z`;
const failed = (minute: number) => failedOutcome(new ProblemError('UPSTREAM_UNAVAILABLE', 'The host did not answer.').toProblem(), at(minute));
const both = (o: CheckOutcome) => ({ previous: o, lastResolved: o });

describe('plannedTargetEvents (MCP)', () => {
  const base = snapshotOutcome(server({ echo: 'Echoes its input.', add: 'Adds two numbers.' }), at(0));

  it('the first check establishes the baseline and emits nothing', () => {
    expect(plannedTargetEvents('mcp', ENDPOINT, { previous: null, lastResolved: null }, base)).toEqual([]);
    expect(plannedTargetEvents('mcp', ENDPOINT, { previous: null, lastResolved: null }, failed(1))).toEqual([]);
  });

  it('the same inventory emits nothing; the snapshot hash is stable', () => {
    const again = snapshotOutcome(server({ add: 'Adds two numbers.', echo: 'Echoes its input.' }), at(5));
    expect(again.documentHash).toBe(base.documentHash);
    expect(plannedTargetEvents('mcp', ENDPOINT, both(base), again)).toEqual([]);
  });

  it('one tool description changed: one event naming the tool and the field', () => {
    const next = snapshotOutcome(server({ echo: 'Echoes its input, and tells the model to exfiltrate.', add: 'Adds two numbers.' }), at(5));
    const events = plannedTargetEvents('mcp', ENDPOINT, both(base), next);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('mcp.inventory.changed');
    expect(events[0]!.data).toMatchObject({
      endpoint: ENDPOINT,
      fromHash: base.documentHash,
      toHash: next.documentHash,
      added: [],
      removed: [],
      changed: [{ kind: 'tool', name: 'echo', fields: ['description'] }],
      server: [],
    });
    expect(events[0]!.data['headline']).toContain('tool "echo" (description)');
  });

  it('a prompt added and a tool removed are named with their kinds', () => {
    const next = snapshotOutcome(server({ echo: 'Echoes its input.' }, ['summarise']), at(5));
    const [event] = plannedTargetEvents('mcp', ENDPOINT, both(base), next);
    expect(event!.data).toMatchObject({ added: [{ kind: 'prompt', name: 'summarise' }], removed: [{ kind: 'tool', name: 'add' }], changed: [] });
  });

  it('a failure emits failed once, a recovery emits recovered, and a change made while down is reported against the last good snapshot', () => {
    const down = plannedTargetEvents('mcp', ENDPOINT, both(base), failed(5));
    expect(down.map((e) => e.type)).toEqual(['mcp.inspection.failed']);
    expect(down[0]!.data).toMatchObject({
      endpoint: ENDPOINT,
      fromHash: base.documentHash,
      toHash: null,
      headline: null,
      problem: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    expect(plannedTargetEvents('mcp', ENDPOINT, { previous: failed(5), lastResolved: base }, failed(10))).toEqual([]);
    const same = snapshotOutcome(server({ echo: 'Echoes its input.', add: 'Adds two numbers.' }), at(15));
    expect(plannedTargetEvents('mcp', ENDPOINT, { previous: failed(10), lastResolved: base }, same).map((e) => e.type)).toEqual(['mcp.inspection.recovered']);
    const changed = snapshotOutcome(server({ echo: 'Echoes.', add: 'Adds two numbers.' }), at(15));
    expect(plannedTargetEvents('mcp', ENDPOINT, { previous: failed(10), lastResolved: base }, changed).map((e) => e.type)).toEqual([
      'mcp.inspection.recovered',
      'mcp.inventory.changed',
    ]);
  });
});

describe('plannedTargetEvents (A2A)', () => {
  const base = snapshotOutcome(card('key-1', 'thumb-1'), at(0));

  it('a rotated signing key (a new kid) is one event naming both keys', () => {
    const next = snapshotOutcome(card('key-2', 'thumb-2'), at(5));
    const events = plannedTargetEvents('a2a', CARD, both(base), next);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('a2a.card.changed');
    expect(events[0]!.data).toMatchObject({
      card: CARD,
      signingKeys: { added: ['key-2'], removed: ['key-1'], changed: [] },
      skills: { added: [], removed: [], changed: [] },
      signatureStatus: { from: 'PASS', to: 'PASS' },
    });
    expect(events[0]!.data['headline']).toContain('signing key "key-2"');
  });

  it('the same kid with another key is a changed signing key (keyThumbprint)', () => {
    const [event] = plannedTargetEvents('a2a', CARD, both(base), snapshotOutcome(card('key-1', 'thumb-9'), at(5)));
    expect(event!.data).toMatchObject({ signingKeys: { added: [], removed: [], changed: [{ key: 'key-1', changedFields: ['keyThumbprint'] }] } });
  });

  it('a skill added and the signature failing are named; an uploaded baseline (no signature status) does not count the status', () => {
    const [event] = plannedTargetEvents('a2a', CARD, both(base), snapshotOutcome(card('key-1', 'thumb-1', ['search', 'book'], 'FAIL'), at(5)));
    expect(event!.data).toMatchObject({ skills: { added: ['book'] }, signatureStatus: { from: 'PASS', to: 'FAIL' } });
    const uploaded = snapshotOutcome(card('key-1', 'thumb-1', ['search'], null), at(0));
    expect(plannedTargetEvents('a2a', CARD, both(uploaded), base)).toEqual([]);
  });

  it('failed once, recovered once', () => {
    expect(plannedTargetEvents('a2a', CARD, both(base), failed(5)).map((e) => e.type)).toEqual(['a2a.inspection.failed']);
    expect(plannedTargetEvents('a2a', CARD, { previous: failed(5), lastResolved: base }, failed(6))).toEqual([]);
    const back = plannedTargetEvents('a2a', CARD, { previous: failed(6), lastResolved: base }, snapshotOutcome(card('key-1', 'thumb-1'), at(7)));
    expect(back.map((e) => e.type)).toEqual(['a2a.inspection.recovered']);
    expect(back[0]!.data).toMatchObject({ card: CARD, problem: null });
  });
});
