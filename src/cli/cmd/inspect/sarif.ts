/**
 * `--format sarif` of `svc inspect-mcp` and `svc inspect-a2a`: one SARIF 2.1.0 log (OASIS) on
 * stdout, for code scanning (GitHub's upload-sarif and other SARIF consumers).
 *
 *   tool.driver     name "svc", the package version, informationUri (the man page), and every rule
 *                   of the command: one per risk-signal id (MCP) and one per check id, each with its
 *                   name, descriptions, help and default level
 *   results         each risk signal (warning), each WARN check (warning), each FAIL check (error);
 *                   message.text is svc's detail; server text (names, URIs) is rendered as the
 *                   terminal shows it, invisible and control characters as U+XXXX (renderText)
 *   locations       a logicalLocation naming the item (`tools/get-env`, `prompts/x`,
 *                   `resources/<uri>`, `instructions`, or the endpoint / card for a check); a
 *                   physicalLocation when the `locate` hook knows a file: with --baseline, the
 *                   baseline file and the line of the item's entry (of its kind, for an added
 *                   item), SarifOptions.locate
 *   baseline        with --baseline, each difference is an error result of `check.drift` of its
 *                   own (an item added, removed or changed, the server's own words, a skill,
 *                   interface or signing key of a card) in place of the one result of the check
 *   partialFingerprints  `svcFinding/v1`: SHA-256 over the rule, the endpoint, the item's kind and
 *                   key, its definitionSha256 and the signal's location/parameter — the same across
 *                   runs while the definition is unchanged, new when it changes; a check's over the
 *                   rule and the endpoint (or card URL)
 *   suppressions    a WARN accepted with --allow-warn: kind external, status accepted
 *   invocations     exitCode (the command's, unchanged) and executionSuccessful
 *   run.properties  the endpoint (card URL), inventoryHash / canonicalSha256 and hashProfile
 *
 * A problem (no answer, exit 4) is a log too: no results, executionSuccessful false and one
 * toolExecutionNotification of level error naming the problem (problemSarif).
 *
 * Pure: no I/O; the CLI writes what these return.
 */
import { createHash } from 'node:crypto';
import { A2A_CHECK_IDS, type A2aCheckId, type A2aInspection } from '../../../core/a2a/types.js';
import { renderText } from '../../../core/mcp/signals.js';
import {
  MCP_CHECK_IDS,
  RISK_SIGNAL_IDS,
  type McpCheckId,
  type McpInspection,
  type RiskSignal,
  type RiskSignalId,
  type SignalLocation,
} from '../../../core/mcp/types.js';
import { VERSION } from '../../../version.js';
import { isAccepted } from '../../cmdutil/checks.js';

export const SARIF_VERSION = '2.1.0';
/** The OASIS schema of SARIF 2.1.0 (errata 01), as its `$schema`. */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** Where svc is documented wherever it is installed: its man page (package.json names no homepage). */
export const INFORMATION_URI = 'man:svc(1)';
/** The key of svc's partial fingerprint; the version changes only if its inputs do. */
export const FINGERPRINT_KEY = 'svcFinding/v1';

export type SarifLevel = 'none' | 'note' | 'warning' | 'error';

/** What a finding is about: the subject a `locate` hook maps to a file, and the fingerprint's input. */
export interface FindingSubject {
  /**
   * `tools`, `prompts`, `resources`, `resourceTemplates`, `instructions`, or `server` / `card` for
   * a check; `skills`, `interfaces`, `signingKeys` for a card's differences from its baseline.
   */
  kind: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'instructions' | 'server' | 'card' | 'skills' | 'interfaces' | 'signingKeys';
  /** The item's key (tool or prompt name, resource URI, URI template); the endpoint or card URL for `server` / `card`. */
  key: string;
  /** The MCP endpoint or the card URL the inspection read. */
  endpoint: string;
  ruleId: string;
  location?: SignalLocation;
  parameter?: string;
}

/** SARIF §3.29: a file and, optionally, a region in it. */
export interface SarifPhysicalLocation {
  artifactLocation: { uri: string; uriBaseId?: string };
  region?: { startLine: number; startColumn?: number; endLine?: number; endColumn?: number };
}

export interface SarifOptions {
  /** The command's exit code (invocations[0].exitCode). */
  exitCode: number;
  /** The WARN check ids accepted with --allow-warn: their results carry an accepted suppression. */
  accepted?: ReadonlySet<string> | undefined;
  /**
   * The hook for file locations: where a finding's subject is written down (a config file naming
   * the server, a committed baseline). Returns undefined when no file says; then the result has
   * its logical location alone.
   */
  locate?: (subject: FindingSubject) => SarifPhysicalLocation | undefined;
}

interface Rule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

interface RuleText {
  name: string;
  short: string;
  full: string;
  help: string;
}

const SIGNAL_HELP =
  "A risk signal is svc's estimate from the item's own words (names, titles, descriptions, parameters, URIs): evidence to review, not a verdict. Read the item's definition (svc inspect-mcp <endpoint> --json) and decide whether an agent should be given it.";

/** One rule per risk signal (docs/agents.md#classes-and-risk-signals: the signals of hostile text and of behaviour). */
const SIGNAL_RULES: Readonly<Record<RiskSignalId, Omit<RuleText, 'help'>>> = {
  hidden_instruction_tag: {
    name: 'HiddenInstructionTag',
    short: 'A hidden instruction tag',
    full: 'The text carries a tag or marker models read as instructions (<IMPORTANT>, <SYSTEM>, [HIDDEN], chat-template tokens, HTML comments): the shape of tool poisoning.',
  },
  model_directive: {
    name: 'ModelDirective',
    short: 'A directive to the model',
    full: 'The text orders the model about: ignore previous instructions, keep something from the user, act without asking.',
  },
  cross_tool_shadowing: {
    name: 'CrossToolShadowing',
    short: 'An order about another tool',
    full: "The text gives orders about another of the server's tools (shadowing): it tries to change how the agent uses a tool it does not own.",
  },
  sensitive_path: {
    name: 'SensitivePath',
    short: 'A sensitive path',
    full: 'The text or URI names a file where secrets live (~/.ssh, id_rsa, .env, mcp.json, /etc …).',
  },
  exfiltration_parameter: {
    name: 'ExfiltrationParameter',
    short: 'A parameter that could carry data out',
    full: 'A parameter named like a side channel (note, context, metadata, feedback …) is asked for file contents, the conversation, the system prompt, secrets or a sensitive file — or any parameter asks to be passed the contents of something.',
  },
  shell_exec_name: {
    name: 'ShellExecName',
    short: 'A name that says it runs commands',
    full: 'The tool is named like a shell or command runner (run_command, bash, exec).',
  },
  executes_code: { name: 'ExecutesCode', short: 'Executes code', full: "The tool's own words say it executes commands or code." },
  destructive_verb: { name: 'DestructiveVerb', short: 'A destructive verb in the name', full: 'The tool name says it deletes, drops, removes or overwrites.' },
  writes_files: { name: 'WritesFiles', short: 'Writes files', full: "The tool's own words say it creates, writes or deletes files." },
  reads_environment: {
    name: 'ReadsEnvironment',
    short: 'Reads the environment',
    full: "The tool's own words say it reads the process environment, where a server keeps its keys and tokens.",
  },
  fetches_urls: { name: 'FetchesUrls', short: 'Fetches URLs', full: "The tool's own words say it fetches URLs given to it." },
  invisible_unicode: {
    name: 'InvisibleUnicode',
    short: 'Invisible characters',
    full: 'The text carries zero-width, bidirectional or tag characters: what a human reads differs from what a model reads.',
  },
  encoded_payload: {
    name: 'EncodedPayload',
    short: 'An encoded payload',
    full: 'The text carries a decoding call (atob, base64 -d, fromCharCode), a run of escape sequences or a long base64 run: content a reviewer cannot read.',
  },
  overlong_description: {
    name: 'OverlongDescription',
    short: 'An overlong description',
    full: 'The description is over 2000 characters: room to hide instructions.',
  },
  url_in_description: { name: 'UrlInDescription', short: 'A URL in the description', full: 'The description names a URL the model may be led to.' },
  nonstandard_name: {
    name: 'NonstandardName',
    short: 'A non-standard tool name',
    full: 'The tool name is empty, over 128 characters, or has a character outside A-Z a-z 0-9 _ - . (the MCP naming rule).',
  },
};

const CHECK_HELP =
  'svc inspect-mcp --help and docs/agents.md#checks-and-exit-status in the svc repository say what each check means; --allow-warn <check-id> accepts a known warning.';
const A2A_CHECK_HELP =
  'svc inspect-a2a --help and docs/agents.md#a2a-agent-cards in the svc repository say what each check means; --allow-warn <check-id> accepts a known warning.';

const MCP_CHECK_RULES: Readonly<Record<McpCheckId, Omit<RuleText, 'help'>>> = {
  historyPersistence: {
    name: 'History',
    short: 'The inventory was stored',
    full: 'The complete inventory was recorded for the next drift comparison; WARN when it could not be.',
  },
  transport: {
    name: 'Transport',
    short: 'The endpoint is served over HTTPS',
    full: 'The endpoint is https (plain http only on an address --egress-allow admits, with a warning).',
  },
  protocol: {
    name: 'Protocol',
    short: 'The current MCP protocol',
    full: 'The server answers stateless discovery (server/discover); WARN when it speaks only the older session handshake.',
  },
  identity: { name: 'Identity', short: 'Server identity', full: 'serverInfo is self-reported and unauthenticated: svc attests no identity.' },
  inventory: {
    name: 'Inventory',
    short: 'No item has risk signals',
    full: 'WARN when any tool, prompt, resource or template has risk signals (each is a result of its own).',
  },
  drift: {
    name: 'Drift',
    short: 'Definitions unchanged since the last inspection, or as approved',
    full: 'WARN when a tool, prompt, resource or template was added, removed or changed since the stored inventory; with --baseline, FAIL (an error per difference, located in the baseline file) when the inventory differs from the approved baseline.',
  },
};

const A2A_CHECK_RULES: Readonly<Record<A2aCheckId, Omit<RuleText, 'help'>>> = {
  fetch: {
    name: 'Fetch',
    short: 'Card served at the well-known path',
    full: 'The card is served at /.well-known/agent-card.json (the legacy agent.json warns).',
  },
  schema: {
    name: 'Schema',
    short: 'Card valid against the A2A schema',
    full: 'The card validates against the A2A 1.0 (or 0.3) schema; FAIL when it breaks it.',
  },
  version: { name: 'Version', short: 'A2A protocol version', full: 'The card declares a protocol version svc knows.' },
  interfaces: { name: 'Interfaces', short: 'Interfaces use HTTPS', full: 'Every interface URL is https; FAIL when one is not.' },
  origin: { name: 'Origin', short: "Interfaces on the card's origin", full: "Interfaces are on the card's own origin; WARN when they are elsewhere." },
  provider: { name: 'Provider', short: 'Provider declared (self-reported)', full: 'The card names its provider (a claim, not verified).' },
  security: { name: 'Security', short: 'Security schemes declared', full: 'The card declares how clients authenticate.' },
  signature: {
    name: 'Signature',
    short: 'Card signature',
    full: 'Each signature verifies with a key svc found (a DID kid or an https jku); FAIL when one is INVALID, WARN when unsigned or unverifiable.',
  },
  drift: {
    name: 'CardAsApproved',
    short: 'Card as approved',
    full: 'With --baseline: the card, its skills, interfaces and signing keys are those of the approved baseline; FAIL on any difference.',
  },
};

function rule(id: string, text: RuleText, level: SarifLevel, tags: string[]): Rule {
  return {
    id,
    name: text.name,
    shortDescription: { text: text.short },
    fullDescription: { text: text.full },
    help: { text: text.help },
    defaultConfiguration: { level },
    properties: { tags },
  };
}

/** A check's rule id: `check.<id>`, apart from the signals' snake_case ids. */
export const checkRuleId = (id: string): string => `check.${id}`;

function mcpRules(): Rule[] {
  return [
    ...RISK_SIGNAL_IDS.map((id) => rule(id, { ...SIGNAL_RULES[id], help: SIGNAL_HELP }, 'warning', ['security', 'mcp', 'risk-signal'])),
    ...MCP_CHECK_IDS.map((id) => rule(checkRuleId(id), { ...MCP_CHECK_RULES[id], help: CHECK_HELP }, 'warning', ['mcp', 'check'])),
  ];
}

function a2aRules(): Rule[] {
  return A2A_CHECK_IDS.map((id) => rule(checkRuleId(id), { ...A2A_CHECK_RULES[id], help: A2A_CHECK_HELP }, 'error', ['a2a', 'check']));
}

function fingerprint(subject: FindingSubject, definitionSha256: string | null): string {
  const input = [subject.ruleId, subject.endpoint, subject.kind, subject.key, definitionSha256, subject.location ?? null, subject.parameter ?? null];
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

const LOGICAL_KIND: Readonly<Record<FindingSubject['kind'], string>> = {
  tools: 'function',
  prompts: 'prompt',
  resources: 'resource',
  resourceTemplates: 'resourceTemplate',
  instructions: 'text',
  server: 'resource',
  card: 'resource',
  skills: 'skill',
  interfaces: 'interface',
  signingKeys: 'key',
};

function logicalLocation(subject: FindingSubject): { name: string; fullyQualifiedName: string; kind: string } {
  const name = renderText(subject.key);
  const qualified = subject.kind === 'server' || subject.kind === 'card' || subject.kind === 'instructions' ? name : `${subject.kind}/${name}`;
  return { name, fullyQualifiedName: qualified, kind: LOGICAL_KIND[subject.kind] };
}

interface Finding {
  subject: FindingSubject;
  level: SarifLevel;
  text: string;
  definitionSha256: string | null;
  properties?: Record<string, unknown>;
  accepted?: boolean;
}

function result(finding: Finding, ruleIndex: number, options: SarifOptions): Record<string, unknown> {
  const physical = options.locate?.(finding.subject);
  return {
    ruleId: finding.subject.ruleId,
    ruleIndex,
    level: finding.level,
    message: { text: renderText(finding.text) },
    locations: [{ ...(physical ? { physicalLocation: physical } : {}), logicalLocations: [logicalLocation(finding.subject)] }],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(finding.subject, finding.definitionSha256) },
    ...(finding.accepted ? { suppressions: [{ kind: 'external', status: 'accepted', justification: 'accepted with --allow-warn' }] } : {}),
    ...(finding.properties ? { properties: finding.properties } : {}),
  };
}

const LOCATION_WORDS: Readonly<Record<SignalLocation, string>> = {
  name: 'name',
  uri: 'URI',
  title: 'title',
  description: 'description',
  parameter: 'parameter',
  instructions: 'instructions',
};

const KIND_WORDS: Readonly<Record<FindingSubject['kind'], string>> = {
  tools: 'Tool',
  prompts: 'Prompt',
  resources: 'Resource',
  resourceTemplates: 'Resource template',
  instructions: 'Server instructions',
  server: 'Server',
  card: 'Card',
  skills: 'Skill',
  interfaces: 'Interface',
  signingKeys: 'Signing key',
};

function signalFinding(
  endpoint: string,
  kind: FindingSubject['kind'],
  key: string,
  definitionSha256: string | null,
  signal: RiskSignal,
  extra: Record<string, unknown>,
): Finding {
  const where =
    signal.location === 'parameter' && signal.parameter !== undefined ? `parameter ${JSON.stringify(signal.parameter)}` : LOCATION_WORDS[signal.location];
  const subject: FindingSubject = {
    kind,
    key,
    endpoint,
    ruleId: signal.id,
    location: signal.location,
    ...(signal.parameter !== undefined ? { parameter: signal.parameter } : {}),
  };
  const named = kind === 'instructions' ? KIND_WORDS[kind] : `${KIND_WORDS[kind]} ${JSON.stringify(key)}`;
  return {
    subject,
    level: 'warning',
    text: `${named}, ${where}: ${signal.detail}`,
    definitionSha256,
    properties: {
      signalLocation: signal.location,
      ...(signal.parameter !== undefined ? { parameter: renderText(signal.parameter) } : {}),
      excerpt: signal.excerpt,
      ...(definitionSha256 !== null ? { definitionSha256 } : {}),
      ...extra,
    },
  };
}

function checkFindings(
  checks: ReadonlyArray<{ id: string; label: string; status: string; detail: string }>,
  kind: 'server' | 'card',
  endpoint: string,
  accepted: ReadonlySet<string> | undefined,
): Finding[] {
  return checks
    .filter((c) => c.status === 'WARN' || c.status === 'FAIL')
    .map((c) => ({
      subject: { kind, key: endpoint, endpoint, ruleId: checkRuleId(c.id) },
      level: c.status === 'FAIL' ? 'error' : 'warning',
      text: `${c.label}: ${c.detail}`,
      definitionSha256: null,
      properties: { checkStatus: c.status },
      accepted: isAccepted(c, accepted),
    }));
}

function log(
  rules: Rule[],
  findings: Finding[],
  options: SarifOptions,
  runProperties: Record<string, unknown>,
  executionSuccessful = true,
  notifications: unknown[] = [],
): SarifLog {
  const index = new Map(rules.map((r, i) => [r.id, i]));
  return {
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        tool: { driver: { name: 'svc', version: VERSION, semanticVersion: VERSION, informationUri: INFORMATION_URI, rules } },
        invocations: [{ executionSuccessful, exitCode: options.exitCode, ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}) }],
        results: findings.map((f) => result(f, index.get(f.subject.ruleId)!, options)),
        properties: runProperties,
      },
    ],
  };
}

/** A SARIF 2.1.0 log: what these functions return, serialised as is. */
export interface SarifLog {
  $schema: string;
  version: typeof SARIF_VERSION;
  runs: Array<Record<string, unknown>>;
}

/** The SARIF log of an MCP inspection: each risk signal, each WARN check. */
export function mcpSarif(inspection: McpInspection, options: SarifOptions): SarifLog {
  const endpoint = inspection.endpoint;
  const findings: Finding[] = [];
  for (const signal of inspection.instructionSignals) findings.push(signalFinding(endpoint, 'instructions', 'instructions', null, signal, {}));
  for (const tool of inspection.tools) {
    for (const signal of tool.riskSignals) {
      findings.push(
        signalFinding(endpoint, 'tools', tool.name, tool.definitionSha256, signal, {
          declaredClass: tool.declaredClass,
          heuristicClass: tool.heuristicClass,
          drift: tool.drift,
        }),
      );
    }
  }
  for (const prompt of inspection.prompts)
    for (const s of prompt.riskSignals) findings.push(signalFinding(endpoint, 'prompts', prompt.name, prompt.definitionSha256, s, { drift: prompt.drift }));
  for (const resource of inspection.resources)
    for (const s of resource.riskSignals)
      findings.push(signalFinding(endpoint, 'resources', resource.uri, resource.definitionSha256, s, { drift: resource.drift }));
  for (const template of inspection.resourceTemplates) {
    for (const s of template.riskSignals)
      findings.push(signalFinding(endpoint, 'resourceTemplates', template.uriTemplate, template.definitionSha256, s, { drift: template.drift }));
  }
  const differences = mcpBaselineFindings(inspection);
  const checks = differences.length > 0 ? inspection.checks.filter((c) => c.id !== 'drift') : inspection.checks;
  findings.push(...checkFindings(checks, 'server', endpoint, options.accepted), ...differences);
  return log(mcpRules(), findings, options, {
    command: 'inspect-mcp',
    endpoint,
    status: inspection.status,
    inventoryHash: inspection.inventoryHash,
    hashProfile: inspection.hashProfile,
    driftStatus: inspection.drift.status,
    observedAt: inspection.observedAt,
  });
}

/** One difference from the baseline: an error of `check.drift`, about its item. */
function difference(
  endpoint: string,
  kind: FindingSubject['kind'],
  key: string,
  definitionSha256: string | null,
  what: string,
  properties: Record<string, unknown>,
): Finding {
  const named = kind === 'server' || kind === 'card' ? KIND_WORDS[kind] : `${KIND_WORDS[kind]} ${JSON.stringify(key)}`;
  return {
    subject: { kind, key, endpoint, ruleId: checkRuleId('drift') },
    level: 'error',
    text: `${named} ${what}`,
    definitionSha256,
    properties: { checkStatus: 'FAIL', ...properties },
  };
}

const MCP_KINDS = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;

/** Each difference of an MCP inventory from its approved baseline (none without one). */
function mcpBaselineFindings(inspection: McpInspection): Finding[] {
  const drift = inspection.drift;
  const baseline = drift.baseline;
  if (!baseline || drift.status !== 'CHANGED') return [];
  const of = `the approved baseline ${baseline.file}`;
  const endpoint = inspection.endpoint;
  const findings: Finding[] = [];
  for (const kind of MCP_KINDS) {
    const items: ReadonlyArray<{
      definitionSha256: string;
      drift: string;
      changedFields?: string[];
      name?: string | null;
      uri?: string;
      uriTemplate?: string;
    }> = inspection[kind];
    const member = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
    for (const item of items) {
      const key = item[member] as string;
      if (item.drift === 'ADDED') findings.push(difference(endpoint, kind, key, item.definitionSha256, `is not in ${of}.`, { drift: 'ADDED' }));
      else if (item.drift === 'CHANGED') {
        const fields = item.changedFields?.length ? `: ${item.changedFields.join(', ')}` : '';
        findings.push(
          difference(endpoint, kind, key, item.definitionSha256, `differs from ${of}${fields}.`, { drift: 'CHANGED', changedFields: item.changedFields ?? [] }),
        );
      }
    }
    const removed = kind === 'tools' ? drift.removed : drift[kind].removed;
    for (const key of removed) findings.push(difference(endpoint, kind, key, null, `is in ${of} but no longer listed.`, { drift: 'REMOVED' }));
  }
  if (baseline.server.length)
    findings.push(difference(endpoint, 'server', endpoint, null, `differs from ${of}: ${baseline.server.join(', ')}.`, { changedFields: baseline.server }));
  return findings;
}

/** Each difference of a card from its approved baseline (none without one). */
function a2aBaselineFindings(inspection: A2aInspection): Finding[] {
  const baseline = inspection.baseline;
  if (baseline?.status !== 'CHANGED') return [];
  const of = `the approved baseline ${baseline.file}`;
  const findings: Finding[] = [];
  for (const kind of ['skills', 'interfaces', 'signingKeys'] as const) {
    const changes = baseline[kind];
    for (const key of changes.added) findings.push(difference(inspection.cardUrl, kind, key, null, `is not in ${of}.`, { drift: 'ADDED' }));
    for (const key of changes.removed)
      findings.push(difference(inspection.cardUrl, kind, key, null, `is in ${of} but no longer in the card.`, { drift: 'REMOVED' }));
    for (const c of changes.changed)
      findings.push(
        difference(inspection.cardUrl, kind, c.key, null, `differs from ${of}: ${c.changedFields.join(', ')}.`, {
          drift: 'CHANGED',
          changedFields: c.changedFields,
        }),
      );
  }
  if (baseline.card.length)
    findings.push(
      difference(inspection.cardUrl, 'card', inspection.cardUrl, null, `members differ from ${of}: ${baseline.card.join(', ')}.`, {
        changedFields: baseline.card,
      }),
    );
  return findings;
}

/** The SARIF log of an A2A card inspection: each WARN and FAIL check (with a baseline, each difference from it). */
export function a2aSarif(inspection: A2aInspection, options: SarifOptions): SarifLog {
  const differences = a2aBaselineFindings(inspection);
  const checks = differences.length > 0 ? inspection.checks.filter((c) => c.id !== 'drift') : inspection.checks;
  return log(a2aRules(), [...checkFindings(checks, 'card', inspection.cardUrl, options.accepted), ...differences], options, {
    command: 'inspect-a2a',
    endpoint: inspection.cardUrl,
    cardSha256: inspection.cardSha256,
    canonicalSha256: inspection.canonicalSha256,
    hashProfile: inspection.hashProfile,
    specVersion: inspection.specVersion,
    signatures: inspection.signatures.map((s) => s.status),
    observedAt: inspection.observedAt,
  });
}

/**
 * A problem (no answer): a log with the command's rules, no results, executionSuccessful false
 * and one error notification carrying the problem's code and detail.
 */
export function problemSarif(
  command: 'inspect-mcp' | 'inspect-a2a',
  endpoint: string,
  problem: { code: string; type: string; detail: string },
  exitCode: number,
): SarifLog {
  const notification = { level: 'error', message: { text: `${problem.code}: ${renderText(problem.detail)}` }, descriptor: { id: problem.code } };
  return log(
    command === 'inspect-mcp' ? mcpRules() : a2aRules(),
    [],
    { exitCode },
    { command, endpoint: renderText(endpoint), problem: { code: problem.code, type: problem.type } },
    false,
    [notification],
  );
}
