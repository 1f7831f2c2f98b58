/**
 * Hostile JSON for the property suite: a valid value of a surface (a JWK, a DID document, a
 * card, a credential…) turned into JSON text with up to three mutations that JSON.stringify
 * would never write — lone surrogates (escaped and raw), NUL, a byte order mark, 10 000-deep
 * nesting, numbers that overflow binary64, duplicate member names (also through `\u` escapes:
 * "kty" and "\u006bty" are the same name), `__proto__` and other Object.prototype names as
 * members, huge strings, and did:jwk identifiers that carry such content to another surface
 * (an issuer, a kid).
 *
 * The text is built from a small tree whose leaves and member names are JSON text, so a
 * mutation can write anything; fast-check shrinks the mutation list (kind, place, variant) and
 * prints a failing case as its mutations plus the start of the text.
 */
import fc from 'fast-check';
import { ProblemError } from '../../../src/core/problems.js';

/** Cases per property: small in `npm test`, more with SVC_PROPERTY_RUNS (README, Development). */
export function propertyRuns(defaultRuns: number): number {
  const configured = Number(process.env['SVC_PROPERTY_RUNS']);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : defaultRuns;
}

/** fast-check parameters: the runs, and SVC_PROPERTY_SEED to replay the seed a failure printed. */
export function propertyParameters(defaultRuns: number): { numRuns: number; seed?: number } {
  const seed = Number(process.env['SVC_PROPERTY_SEED']);
  return { numRuns: propertyRuns(defaultRuns), ...(process.env['SVC_PROPERTY_SEED'] && Number.isSafeInteger(seed) ? { seed } : {}) };
}

/** Time a property may take: scaled with the number of runs asked for. */
export function propertyTimeout(defaultRuns: number, perRunMs: number): number {
  return Math.max(30_000, propertyRuns(defaultRuns) * perRunMs + 10_000);
}

type Node = { kind: 'leaf'; text: string } | { kind: 'array'; items: Node[] } | { kind: 'object'; members: Array<{ name: string; value: Node }> };

function toNode(value: unknown): Node {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(toNode) };
  if (typeof value === 'object' && value !== null) {
    return { kind: 'object', members: Object.entries(value).map(([name, v]) => ({ name: JSON.stringify(name), value: toNode(v) })) };
  }
  return { kind: 'leaf', text: JSON.stringify(value) ?? 'null' };
}

function render(node: Node): string {
  if (node.kind === 'leaf') return node.text;
  if (node.kind === 'array') return `[${node.items.map(render).join(',')}]`;
  return `{${node.members.map((m) => `${m.name}:${render(m.value)}`).join(',')}}`;
}

/** Every node with a way to replace it, in document order (the root first). */
function slots(root: { node: Node }): Array<{ node: Node; set: (n: Node) => void }> {
  const out: Array<{ node: Node; set: (n: Node) => void }> = [];
  const walk = (node: Node, set: (n: Node) => void) => {
    out.push({ node, set });
    if (node.kind === 'array') node.items.forEach((item, i) => walk(item, (n) => (node.items[i] = n)));
    if (node.kind === 'object') for (const m of node.members) walk(m.value, (n) => (m.value = n));
  };
  walk(root.node, (n) => (root.node = n));
  return out;
}

const DEEP = 10_000;
const HUGE = 200_000;

/** did:jwk identifiers whose JWK is hostile: what another surface (an issuer, a kid) may name. */
const HOSTILE_JWKS = [
  '{"kty":"OKP","crv":"Ed25519","x":"\\ud800"}',
  '{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","\\udfff":1}',
  '{"kty":"EC","crv":"P-256","x":1e400,"y":"x"}',
  '{"kty":"OKP","kty":"EC"}',
  '{"kty":"OKP","\\u006bty":"EC","crv":"Ed25519"}',
  '{"__proto__":{"kty":"OKP"},"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}',
];

/** A hostile did:jwk, as a DID or as the DID URL of its key (`#0`, what a kid or a verificationMethod names). */
function hostileDid(variant: number): string {
  const did = `did:jwk:${Buffer.from(HOSTILE_JWKS[variant % HOSTILE_JWKS.length]!, 'utf8').toString('base64url')}`;
  return variant % 2 === 0 ? did : `${did}#0`;
}

/** Leaves that are not I-JSON or not JSON at all, as JSON text. */
const HOSTILE_LEAVES: Record<string, readonly string[]> = {
  'lone-surrogate': ['"\\ud800"', '"\\udfff"', '"abc\\udbff"', '"\\udc00\\ud800"', '"\\ud800\\u0041"', '"\ud800"', '"x\udfffy"'],
  nul: ['"a\u0000b"', '"\\u0000"', '\u0000', '"\\u0000\\ud800"'],
  number: ['1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '1E+999', '0.0000000000000000000000001'],
  deep: ['['.repeat(DEEP) + ']'.repeat(DEEP), '{"a":'.repeat(DEEP) + 'null' + '}'.repeat(DEEP)],
  huge: [`"${'a'.repeat(HUGE)}"`, `"${'\\ud83d\\ude00'.repeat(HUGE / 12)}"`],
};

export const MUTATION_KINDS = ['lone-surrogate', 'lone-surrogate-name', 'nul', 'bom', 'number', 'deep', 'duplicate', 'proto', 'huge', 'hostile-did'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  /** Which node (modulo the number of candidates). */
  at: number;
  /** Which variant of the kind. */
  variant: number;
}

/** `"kty"` written with its first character as a `\u` escape: the same member name. */
function escapedName(name: string): string {
  const inner = JSON.parse(name) as string;
  if (inner === '') return '"\\u0000"';
  return `"\\u${inner.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(inner.slice(1)).slice(1, -1)}"`;
}

function applyMutation(root: { node: Node; bom: boolean }, m: Mutation): void {
  const all = slots(root);
  const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  switch (m.kind) {
    case 'bom':
      root.bom = true;
      return;
    case 'duplicate': {
      const target = pick(
        all.filter((s) => s.node.kind === 'object' && s.node.members.length > 0),
        m.at,
      )?.node;
      if (target?.kind !== 'object') return;
      const original = target.members[m.variant % target.members.length]!;
      const name = m.variant % 2 === 0 ? original.name : escapedName(original.name);
      target.members.push({ name, value: { kind: 'leaf', text: '"duplicate"' } });
      return;
    }
    case 'proto':
    case 'lone-surrogate-name': {
      const target = pick(
        all.filter((s) => s.node.kind === 'object'),
        m.at,
      )?.node;
      if (target?.kind !== 'object') return;
      const names =
        m.kind === 'proto' ? ['"__proto__"', '"\\u005f_proto__"', '"constructor"', '"toString"', '"hasOwnProperty"'] : ['"\\ud800"', '"k\\udc00"', '"\ud800"'];
      const values = ['{"polluted":true}', 'null', '[]', '"x"'];
      target.members.splice(m.at % (target.members.length + 1), 0, {
        name: names[m.variant % names.length]!,
        value: { kind: 'leaf', text: values[m.variant % values.length]! },
      });
      return;
    }
    case 'hostile-did': {
      const target = pick(
        all.filter((s) => s.node.kind === 'leaf' && s.node.text.startsWith('"')),
        m.at,
      );
      target?.set({ kind: 'leaf', text: JSON.stringify(hostileDid(m.variant)) });
      return;
    }
    default: {
      // Replace a leaf (most of the time) or any node with a hostile leaf.
      const leaves = all.filter((s) => s.node.kind === 'leaf');
      const target = pick(m.at % 4 === 0 ? all : leaves.length > 0 ? leaves : all, m.at);
      const variants = HOSTILE_LEAVES[m.kind]!;
      target?.set({ kind: 'leaf', text: variants[m.variant % variants.length]! });
    }
  }
}

/** The JSON text of `base` after `mutations` (a JS string: it may hold raw lone surrogates). */
export function hostileText(base: unknown, mutations: readonly Mutation[]): string {
  const root = { node: toNode(base), bom: false };
  for (const m of mutations) applyMutation(root, m);
  return (root.bom ? '\ufeff' : '') + render(root.node);
}

/**
 * UTF-8 as a hostile server writes it: lone surrogates encoded as 3-byte sequences (WTF-8),
 * which Buffer.from would silently have replaced by U+FFFD.
 */
export function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes.push(...Buffer.from(text.slice(i, i + 2), 'utf8'));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** One generated case: the mutations, and the text they made (printed short when a property fails). */
export interface HostileCase {
  mutations: Mutation[];
  text: string;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  at: fc.nat({ max: 10_000 }),
  variant: fc.nat({ max: 100 }),
});

/** Hostile JSON texts made from `base` (1 to 3 mutations). */
export function hostileJson(base: unknown): fc.Arbitrary<HostileCase> {
  return fc.array(mutationArb, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const text = hostileText(base, mutations);
    return {
      mutations,
      text,
      [fc.toStringMethod]: () => `${JSON.stringify(mutations)} → ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text)}`,
    };
  });
}

/** What a shell would make of an outcome: a result, or the problem it would answer with. */
export type Outcome = { result: unknown } | { problem: ProblemError } | { thrown: unknown };

export async function settle(work: () => unknown): Promise<Outcome> {
  try {
    return { result: await work() };
  } catch (err) {
    return err instanceof ProblemError ? { problem: err } : { thrown: err };
  }
}

/** Text of a stack frame, a source path or a Node internal: never in what svc answers. */
const STACK = /\n\s+at \S|node:internal|file:\/\/\/|\([^()\s]*:\d+:\d+\)|\.[cm]?[jt]sx?:\d+:\d+/;

/**
 * The invariant of every surface: an answer (a result or a precise problem), never
 * INTERNAL_ERROR — neither thrown nor embedded in a result (an issuer's resolution problem) —
 * never an exception the shells would turn into one, never a stack trace, and a result the
 * daemon can serialise.
 */
export function expectAnswered(outcome: Outcome, label: string): void {
  if ('thrown' in outcome) {
    const err = outcome.thrown;
    throw new Error(`${label}: threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} (the shells answer INTERNAL_ERROR)`);
  }
  if ('problem' in outcome) {
    const { code, detail } = outcome.problem;
    if (code === 'INTERNAL_ERROR') {
      const cause = outcome.problem.cause instanceof Error ? ` (cause: ${outcome.problem.cause.message})` : '';
      throw new Error(`${label}: INTERNAL_ERROR${cause}`);
    }
    if (STACK.test(detail)) throw new Error(`${label}: a stack trace in the detail of ${code}`);
    return;
  }
  let serialised: string;
  try {
    serialised = JSON.stringify(outcome.result) ?? '';
  } catch (err) {
    throw new Error(`${label}: the result cannot be serialised (${err instanceof Error ? err.message : String(err)})`);
  }
  if (serialised.includes('INTERNAL_ERROR')) throw new Error(`${label}: INTERNAL_ERROR inside the result: ${serialised.slice(0, 400)}`);
  if (STACK.test(serialised)) throw new Error(`${label}: a stack trace in the result`);
}

/** Asserts the invariant for one call. */
export async function expectNoInternalError(label: string, work: () => unknown): Promise<void> {
  expectAnswered(await settle(work), label);
}
