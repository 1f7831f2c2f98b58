/**
 * A2A agent-card inspection (docs/agents.md#a2a-agent-cards): fetch the card, read what it claims,
 * check what svc can check, verify its signatures. A failed check is a result; a ProblemError means
 * no card could be read (fetch.ts).
 *
 * Checks, in the order reported:
 *
 * | id         | PASS | WARN | FAIL | SKIP |
 * |------------|------|------|------|------|
 * | fetch      | served at the well-known `agent-card.json` (or the card URL given), as JSON, without leaving the origin | came from the legacy `/.well-known/agent.json`; a redirect to another origin; a content type that is not JSON | | |
 * | schema     | every member the card's version requires, with its JSON type (1.0 for 1.0 and unknown cards, 0.3 for 0.3 cards); unknown members are listed, not failed | | up to 5 precise problems (`skills[2].id is missing`) and how many more | |
 * | version    | `specVersion` 1.0 and an interface declares protocol version 1.x | 1.0 shape but no 1.x interface; a 0.3 card (svc asked for 1.0); unknown | | |
 * | interfaces | every interface URL is https | | an interface URL is not https (or not a URL) | no interface |
 * | origin     | every interface is on the card's origin | an interface on another origin (or without a URL) | | no interface |
 * | provider   | a provider is declared (self-reported: nothing verifies it) | no provider | | |
 * | security   | schemes declared, every requirement names a declared one, at least one requirement | no scheme declared (the agent may take anonymous calls); schemes that no requirement names; a requirement naming an undeclared scheme | | |
 * | signature  | ≥ 1 VALID and none INVALID | only INDETERMINATE / UNSUPPORTED | any INVALID; `signatures` is not an array | unsigned |
 *
 * `specVersion`: `1.0` when `supportedInterfaces` is an array with an interface of protocol
 * version 1.x; `0.3` when the card has `url` and a `protocolVersion` of 0.3.x (and no 1.x
 * interface, so the 0.3-shaped answer of an SDK in compatibility mode, which embeds
 * `supportedInterfaces`, still reads as 0.3); `1.0` for any other card with
 * `supportedInterfaces`; otherwise `unknown`.
 *
 * Nothing the card says is taken as identity: the headline names the card's `name` only as a
 * quoted claim, and the checks say what was self-reported.
 */
import { HASH_PROFILE, jcsSha256 } from '../canonical.js';
import { didKeySource, type KeySource } from '../credentials/keys.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import type { StageHooks } from '../resolve/trace.js';
import { rfc3339, type Runtime } from '../runtime.js';
import { suppliedLimitations } from '../supplied/resources.js';
import { capitalise, clause } from '../text.js';
import { fetchAgentCard, type FetchedCard } from './fetch.js';
import { countedInspection } from '../telemetry.js';
import { A2A_V03_SCHEMA, A2A_V1_SCHEMA, quoteShort, validateCard } from './schema.js';
import { cardPayloads, verifyCardSignatures, type SignatureOutcome } from './signatures.js';
import {
  A2A_CARD_PATH,
  A2A_LIMITATIONS,
  type A2aCheck,
  type A2aCheckId,
  type A2aCheckStatus,
  type A2aInspection,
  type A2aInterface,
  type A2aProvider,
  type A2aSkill,
  type A2aSpecVersion,
} from './types.js';

export interface A2aInspectOptions {
  runtime: Runtime;
  /** Where the keys of a DID `kid` are found; default: DIDs resolved through the core. */
  keys?: KeySource;
  signal?: AbortSignal;
  /** Watch the slow stages (card and JWK set fetches, DID resolutions): the CLI's progress. */
  hooks?: StageHooks;
}

const LABELS: Readonly<Record<A2aCheckId, string>> = {
  fetch: 'Card served at the well-known path',
  schema: 'Card valid against the A2A schema',
  version: 'A2A protocol version',
  interfaces: 'Interfaces use HTTPS',
  origin: "Interfaces on the card's origin",
  provider: 'Provider declared (self-reported)',
  security: 'Security schemes declared',
  signature: 'Card signature',
  drift: 'Card as approved',
};

/** Problems shown in the schema detail; the rest are counted. */
const MAX_SCHEMA_PROBLEMS = 5;

/** Inspects the agent card at `url` (an origin or the card's own URL). */
export function inspectA2a(url: string, options: A2aInspectOptions): Promise<A2aInspection> {
  return countedInspection(
    options.runtime.telemetry,
    'a2a',
    () => 'ok',
    () => inspectCard(url, options),
  );
}

async function inspectCard(url: string, options: A2aInspectOptions): Promise<A2aInspection> {
  const { runtime, signal } = options;
  const fetched = await fetchAgentCard(url, runtime, signal, options.hooks);
  const observedAt = rfc3339(runtime.clock.now());
  const { card, response } = fetched;
  const cardUrl = response.url;

  const specVersion = specVersionOf(card);
  const interfaces = interfacesOf(card, specVersion, cardUrl);

  // Signatures: the candidate payloads are computed once for all entries.
  const { a2aForm, ...payloads } = cardPayloads(card);
  const rawSignatures = card['signatures'];
  const entries = Array.isArray(rawSignatures) ? rawSignatures : [];
  const signatures = await verifyCardSignatures(entries, {
    runtime,
    keys: options.keys ?? didKeySource(runtime, undefined, options.hooks),
    ...(signal ? { signal } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
    cardUrl,
    ...payloads,
  });

  const checks: A2aCheck[] = [
    fetchCheck(fetched),
    schemaCheck(card, specVersion),
    versionCheck(card, specVersion, fetched),
    interfacesCheck(interfaces),
    originCheck(interfaces, cardUrl),
    providerCheck(card),
    securityCheck(card, specVersion),
    signatureCheck(rawSignatures, signatures),
  ];

  const supplied = response.supplied !== undefined;
  const limitations: string[] = [A2A_LIMITATIONS.selfReported, supplied ? A2A_LIMITATIONS.suppliedCardOnly : A2A_LIMITATIONS.cardOnly];
  if (rawSignatures === undefined || rawSignatures === null || (Array.isArray(rawSignatures) && rawSignatures.length === 0))
    limitations.push(A2A_LIMITATIONS.unsigned);
  if (signatures.some((s) => s.keySource === 'did')) limitations.push(A2A_LIMITATIONS.didKid);
  if (signatures.some((s) => s.keySource === 'jku')) limitations.push(A2A_LIMITATIONS.jku);
  if (entries.length > 0 && !('error' in a2aForm)) {
    const securityOnly = new Set(a2aForm.uncoveredSecurity);
    if (a2aForm.uncovered.some((p) => !securityOnly.has(p))) limitations.push(A2A_LIMITATIONS.uncovered);
    if (securityOnly.size > 0) limitations.push(A2A_LIMITATIONS.droppedSecurity);
  }
  // Verifying from files: each resource supplied (the card, a key's document) or withheld.
  if (runtime.supplied) limitations.push(...suppliedLimitations(runtime.supplied.consulted()));

  return {
    cardUrl,
    // A card supplied from a file had no HTTP exchange: 0, never a status svc did not see.
    httpStatus: supplied ? 0 : response.status,
    cardSha256: response.sha256,
    canonicalSha256: jcsSha256(card),
    hashProfile: HASH_PROFILE,
    specVersion,
    name: stringMember(card, 'name'),
    description: stringMember(card, 'description'),
    version: stringMember(card, 'version'),
    provider: providerOf(card),
    documentationUrl: stringMember(card, 'documentationUrl'),
    interfaces,
    capabilities: objectMember(card, 'capabilities'),
    securitySchemes: objectMember(card, 'securitySchemes'),
    skills: skillsOf(card),
    signatures: signatures.map(({ keySource: _keySource, ...signature }) => signature),
    checks,
    headline: headlineOf(card, specVersion, checks, signatures),
    card,
    tls: response.tls,
    observedAt,
    limitations,
  };
}

function stringMember(obj: JsonObject, name: string): string | null {
  const v = obj[name];
  return typeof v === 'string' ? v : null;
}

function objectMember(obj: JsonObject, name: string): JsonObject | null {
  const v = obj[name];
  return isJsonObject(v) ? v : null;
}

function stringsOf(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function providerOf(card: JsonObject): A2aProvider | null {
  const p = objectMember(card, 'provider');
  return p ? { organization: stringMember(p, 'organization'), url: stringMember(p, 'url') } : null;
}

function skillsOf(card: JsonObject): A2aSkill[] {
  const skills = card['skills'];
  if (!Array.isArray(skills)) return [];
  return skills.filter(isJsonObject).map((s) => ({
    id: stringMember(s, 'id'),
    name: stringMember(s, 'name'),
    description: stringMember(s, 'description'),
    tags: stringsOf(s['tags']),
  }));
}

/** Protocol versions declared by 1.0-style interfaces. */
function declaredVersions(card: JsonObject): string[] {
  const list = card['supportedInterfaces'];
  return Array.isArray(list)
    ? list
        .filter(isJsonObject)
        .map((i) => i['protocolVersion'])
        .filter((v): v is string => typeof v === 'string')
    : [];
}

const isV1 = (version: string) => /^1\.\d+/.test(version) || version === '1';
const isV03 = (version: string) => /^0\.3(\.|$)/.test(version);

export function specVersionOf(card: JsonObject): A2aSpecVersion {
  const hasInterfaces = Array.isArray(card['supportedInterfaces']);
  if (hasInterfaces && declaredVersions(card).some(isV1)) return '1.0';
  const pv = card['protocolVersion'];
  if (typeof card['url'] === 'string' && typeof pv === 'string' && isV03(pv)) return '0.3';
  return hasInterfaces ? '1.0' : 'unknown';
}

function describeInterface(url: string | null, protocolBinding: string | null, protocolVersion: string | null, cardOrigin: string | null): A2aInterface {
  let https = false;
  let same = false;
  if (url !== null) {
    try {
      const parsed = new URL(url);
      https = parsed.protocol === 'https:';
      same = cardOrigin !== null && parsed.origin === cardOrigin;
    } catch {
      // Not a URL: neither https nor on any origin.
    }
  }
  return { url, protocolBinding, protocolVersion, https, sameOrigin: same };
}

export function interfacesOf(card: JsonObject, specVersion: A2aSpecVersion, cardUrl: string): A2aInterface[] {
  let cardOrigin: string | null = null;
  try {
    cardOrigin = new URL(cardUrl).origin;
  } catch {
    cardOrigin = null;
  }
  if (specVersion !== '0.3' && Array.isArray(card['supportedInterfaces'])) {
    return card['supportedInterfaces']
      .filter(isJsonObject)
      .map((i) => describeInterface(stringMember(i, 'url'), stringMember(i, 'protocolBinding'), stringMember(i, 'protocolVersion'), cardOrigin));
  }
  const url = stringMember(card, 'url');
  if (url === null) return [];
  // 0.3: the main URL with `preferredTransport` (default JSONRPC), then `additionalInterfaces`.
  const protocolVersion = stringMember(card, 'protocolVersion');
  const out = [describeInterface(url, stringMember(card, 'preferredTransport') ?? 'JSONRPC', protocolVersion, cardOrigin)];
  const more = card['additionalInterfaces'];
  if (Array.isArray(more)) {
    for (const i of more.filter(isJsonObject)) {
      const entry = describeInterface(stringMember(i, 'url'), stringMember(i, 'transport'), protocolVersion, cardOrigin);
      if (!out.some((o) => o.url === entry.url && o.protocolBinding === entry.protocolBinding)) out.push(entry);
    }
  }
  return out;
}

function check(id: A2aCheckId, status: A2aCheckStatus, detail: string): A2aCheck {
  return { id, label: LABELS[id], status, detail };
}

function isJsonContentType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]*\+json$/.test(type);
}

function fetchCheck(fetched: FetchedCard): A2aCheck {
  const { response } = fetched;
  if (response.supplied) {
    return check(
      'fetch',
      'SKIP',
      `Not checked: the card was supplied from the file ${response.supplied.source} in place of ${response.url}, not fetched; where and how the agent serves it was not seen.`,
    );
  }
  const warnings: string[] = [];
  if (fetched.legacy) {
    warnings.push(`${A2A_CARD_PATH} answered HTTP ${fetched.currentPathStatus}; the card came from the legacy /.well-known/agent.json of A2A 0.2 and earlier`);
  }
  const from = new URL(fetched.requestedUrl).origin;
  const to = new URL(response.url).origin;
  if (from !== to) warnings.push(`the request to ${from} was redirected to another origin, ${to}`);
  if (!isJsonContentType(response.contentType)) {
    warnings.push(`the card was served as ${response.contentType ? quoteShort(response.contentType, 60) : 'no content type'}, not application/json`);
  }
  if (warnings.length > 0) return check('fetch', 'WARN', `${capitalise(warnings.join('; '))}.`);
  const hops = response.redirects.length > 0 ? ` after ${response.redirects.length} same-origin redirect${response.redirects.length > 1 ? 's' : ''}` : '';
  return check('fetch', 'PASS', `The card was served at ${response.url} (HTTP ${response.status}, JSON)${hops}.`);
}

function schemaCheck(card: JsonObject, specVersion: A2aSpecVersion): A2aCheck {
  const v03 = specVersion === '0.3';
  const report = validateCard(card, v03 ? A2A_V03_SCHEMA : A2A_V1_SCHEMA);
  const against = v03 ? 'A2A 0.3' : 'A2A 1.0';
  const unknown =
    report.unknown.length > 0
      ? ` ${report.unknown.length} member${report.unknown.length > 1 ? 's lie' : ' lies'} outside the ${against} schema: ${report.unknown.slice(0, 3).join(', ')}${report.unknown.length > 3 ? ' …' : ''}.`
      : '';
  if (report.problems.length === 0) {
    return check('schema', 'PASS', `The card has every member ${against} requires, with the right types.${unknown}`);
  }
  const shown = report.problems.slice(0, MAX_SCHEMA_PROBLEMS).join('; ');
  const more = report.problems.length > MAX_SCHEMA_PROBLEMS ? `; and ${report.problems.length - MAX_SCHEMA_PROBLEMS} more` : '';
  const count = `${report.problems.length} problem${report.problems.length > 1 ? 's' : ''}`;
  return check('schema', 'FAIL', `Not valid against ${against} (${count}): ${shown}${more}.${unknown}`);
}

function versionCheck(card: JsonObject, specVersion: A2aSpecVersion, fetched: FetchedCard): A2aCheck {
  const pv = stringMember(card, 'protocolVersion');
  if (specVersion === '1.0') {
    const v1 = declaredVersions(card).filter(isV1).length;
    const alsoLegacy =
      typeof card['url'] === 'string' || pv !== null ? ' It also carries 0.3 members (url, protocolVersion), as SDKs in compatibility mode write them.' : '';
    if (v1 === 0)
      return check('version', 'WARN', `The card has the A2A 1.0 shape (supportedInterfaces), but no interface declares protocol version 1.x.${alsoLegacy}`);
    return check('version', 'PASS', `A2A 1.0 card: ${v1} interface${v1 > 1 ? 's declare' : ' declares'} protocol version 1.x.${alsoLegacy}`);
  }
  if (specVersion === '0.3') {
    const asked = fetched.legacy ? ', although it came from the legacy path' : fetched.response.supplied ? '' : ', although svc asked for A2A-Version 1.0';
    return check(
      'version',
      'WARN',
      `A2A 0.3 card (url, protocolVersion ${quoteShort(pv ?? '', 20)})${asked}; A2A 1.0 replaced these members with supportedInterfaces.`,
    );
  }
  const named = pv !== null ? ` (protocolVersion ${quoteShort(pv, 20)})` : '';
  return check(
    'version',
    'WARN',
    `The card has neither supportedInterfaces (A2A 1.0) nor url with protocolVersion 0.3.x (A2A 0.3)${named}: its version is unknown.`,
  );
}

function interfaceName(i: A2aInterface, index: number): string {
  return i.url === null ? `interface ${index + 1} (no URL)` : quoteShort(i.url, 80);
}

function interfacesCheck(interfaces: A2aInterface[]): A2aCheck {
  if (interfaces.length === 0) return check('interfaces', 'SKIP', 'The card declares no interface.');
  const bad = interfaces.map((i, n) => ({ i, n })).filter(({ i }) => !i.https);
  if (bad.length > 0) {
    const named = bad
      .slice(0, 3)
      .map(({ i, n }) => interfaceName(i, n))
      .join(', ');
    return check(
      'interfaces',
      'FAIL',
      `${bad.length} of ${interfaces.length} interface${interfaces.length > 1 ? 's are' : ' is'} not https: ${named}${bad.length > 3 ? ' …' : ''}.`,
    );
  }
  return check('interfaces', 'PASS', `All ${interfaces.length} interface${interfaces.length > 1 ? 's use' : ' uses'} https.`);
}

function originCheck(interfaces: A2aInterface[], cardUrl: string): A2aCheck {
  if (interfaces.length === 0) return check('origin', 'SKIP', 'The card declares no interface.');
  const origin = new URL(cardUrl).origin;
  const other = interfaces.map((i, n) => ({ i, n })).filter(({ i }) => !i.sameOrigin);
  if (other.length > 0) {
    const named = other
      .slice(0, 3)
      .map(({ i, n }) => interfaceName(i, n))
      .join(', ');
    return check(
      'origin',
      'WARN',
      `${other.length} of ${interfaces.length} interface${interfaces.length > 1 ? 's are' : ' is'} not on the card's origin ${origin}: ${named}${other.length > 3 ? ' …' : ''}; whoever serves the card sends callers there.`,
    );
  }
  return check('origin', 'PASS', `All interfaces are on the card's origin ${origin}.`);
}

function providerCheck(card: JsonObject): A2aCheck {
  const provider = providerOf(card);
  if (!provider) return check('provider', 'WARN', 'The card names no provider.');
  const org = provider.organization !== null ? quoteShort(provider.organization, 60) : 'an organisation without a name';
  const url = provider.url !== null ? ` (${quoteShort(provider.url, 80)})` : '';
  return check('provider', 'PASS', `The card names ${org}${url} as its provider; this is the agent's own claim, which svc does not verify.`);
}

/** Scheme names that security requirements (card and skills) refer to. */
function requirementNames(card: JsonObject, specVersion: A2aSpecVersion): { count: number; names: Set<string> } {
  const names = new Set<string>();
  let count = 0;
  const read = (list: JsonValue | undefined, v03: boolean) => {
    if (!Array.isArray(list)) return;
    for (const requirement of list) {
      if (!isJsonObject(requirement)) continue;
      const schemes = v03 ? requirement : requirement['schemes'];
      if (!isJsonObject(schemes)) continue;
      count++;
      for (const name of Object.keys(schemes)) names.add(name);
    }
  };
  const v03 = specVersion === '0.3';
  const member = v03 ? 'security' : 'securityRequirements';
  read(card[member], v03);
  const skills = card['skills'];
  if (Array.isArray(skills)) for (const skill of skills) if (isJsonObject(skill)) read(skill[member], v03);
  return { count, names };
}

function nameList(names: string[]): string {
  return `${names
    .slice(0, 3)
    .map((n) => quoteShort(n, 40))
    .join(', ')}${names.length > 3 ? ' …' : ''}`;
}

function securityCheck(card: JsonObject, specVersion: A2aSpecVersion): A2aCheck {
  const schemes = objectMember(card, 'securitySchemes');
  const declared = schemes ? Object.keys(schemes) : [];
  const requirements = requirementNames(card, specVersion);
  const member = specVersion === '0.3' ? 'security' : 'securityRequirements';
  if (declared.length === 0) {
    const named = requirements.names.size > 0 ? `, yet ${member} name ${nameList([...requirements.names])}` : '';
    return check('security', 'WARN', `The card declares no security scheme${named}: the agent may accept anonymous calls.`);
  }
  const undeclared = [...requirements.names].filter((n) => !Object.hasOwn(schemes!, n));
  if (undeclared.length > 0) return check('security', 'WARN', `${member} name undeclared schemes: ${nameList(undeclared)}.`);
  const schemesText = `${declared.length} security scheme${declared.length > 1 ? 's' : ''} (${nameList(declared)})`;
  if (requirements.count === 0) {
    return check('security', 'WARN', `The card declares ${schemesText}, but no ${member} entry says one is required.`);
  }
  return check('security', 'PASS', `The card declares ${schemesText} and ${member} refer to them; these are the agent's own claims.`);
}

function signatureCheck(raw: JsonValue | undefined, signatures: SignatureOutcome[]): A2aCheck {
  // null is ProtoJSON's "not set": an unsigned card, as the schema reads it.
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) return check('signature', 'FAIL', 'The card member signatures is not an array.');
  if (signatures.length === 0) return check('signature', 'SKIP', 'The card is unsigned.');
  const count = (status: string) => signatures.filter((s) => s.status === status).length;
  const valid = count('VALID');
  const invalid = count('INVALID');
  const of = `${signatures.length} signature${signatures.length > 1 ? 's' : ''}`;
  const first = (status: string) => signatures.findIndex((s) => s.status === status);
  if (invalid > 0) {
    const i = first('INVALID');
    return check('signature', 'FAIL', `${invalid} of ${of} INVALID; signatures[${i}]: ${clause(signatures[i]!.detail)}.`);
  }
  if (valid > 0) {
    const i = first('VALID');
    const forms = [...new Set(signatures.filter((s) => s.status === 'VALID').map((s) => s.canonicalization))].join(', ');
    return check('signature', 'PASS', `${valid} of ${of} VALID (${forms}); signatures[${i}]: ${clause(signatures[i]!.detail)}.`);
  }
  const i = signatures.findIndex((s) => s.status !== 'VALID');
  return check(
    'signature',
    'WARN',
    `No signature could be verified (${signatures.map((s) => s.status).join(', ')}); signatures[${i}]: ${clause(signatures[i]!.detail)}.`,
  );
}

function headlineOf(card: JsonObject, specVersion: A2aSpecVersion, checks: A2aCheck[], signatures: SignatureOutcome[]): string {
  const name = stringMember(card, 'name');
  const who = name !== null && name !== '' ? `Agent card of ${quoteShort(name, 60)}` : 'Agent card without a name';
  const version = specVersion === 'unknown' ? 'A2A version unknown' : `A2A ${specVersion}`;
  const sig = checks.find((c) => c.id === 'signature')!;
  let signed: string;
  if (sig.status === 'SKIP') signed = 'unsigned';
  else if (sig.status === 'PASS') signed = 'signature VALID';
  else if (sig.status === 'FAIL') signed = signatures.length > 0 ? 'signature INVALID' : 'signatures malformed';
  else signed = `signature ${signatures.find((s) => s.status !== 'VALID')!.status}`;
  const others = checks.filter((c) => c.id !== 'signature');
  const tally = (status: A2aCheckStatus) => {
    const n = others.filter((c) => c.status === status).length;
    return n > 0 ? [`${n} check${n > 1 ? 's' : ''} ${status}`] : [];
  };
  return [`${who} (${version})`, signed, ...tally('FAIL'), ...tally('WARN')].join(', ') + '.';
}
