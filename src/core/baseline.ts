/**
 * Approved baselines (docs/agents.md#approved-baselines): the file format both kinds share — an
 * MCP baseline (`svc-mcp-baseline`, mcp/baseline.ts) and an A2A baseline (`svc-a2a-baseline`,
 * a2a/baseline.ts). A baseline is written by `svc mcp approve` / `svc a2a approve`, committed, and
 * read by `--baseline`; it never moves by itself.
 *
 * The layout — canonical and diff-friendly at once: the value's RFC 8785 form (members sorted by
 * UTF-16 code units, RFC 8785 strings and numbers) with one member or array element per line,
 * two spaces of indentation per level, `"name": value`, `[]` and `{}` for empty containers, LF line
 * ends and one final newline. Removing the layout whitespace (outside strings) gives exactly the
 * RFC 8785 text, so the bytes are a function of the content: one approval writes one file, an
 * unchanged inventory re-approved writes the same bytes, and a review diff shows the one member
 * that changed (one item per line would show a whole definition instead).
 *
 * Reading refuses (INVALID_REQUEST, one sentence naming the file; the CLI reports it as an
 * option's value, exit 2): more than 16 MiB, not UTF-8, not strict JSON (a duplicate member
 * included), another format, a version this svc does not read (a newer one: "approve with a newer
 * svc"), another hash profile, and a layout other than the one above (edited by hand or
 * reformatted: re-approve). CRLF line ends are read as LF (a checkout with autocrlf).
 */
import { CanonicalizationError, HASH_PROFILE } from './canonical.js';
import { describeJsonError, isJsonObject, parseJsonStrict, type JsonObject, type JsonValue } from './encoding/json.js';
import { ProblemError } from './problems.js';

/** The version of both baseline formats this svc writes and reads. */
export const BASELINE_VERSION = 1;
/** Largest baseline read: 16 MiB (500 tools and 500 other items with their schemas fit many times over). */
export const BASELINE_MAX_BYTES = 16 * 1024 * 1024;
/** Nesting of a baseline: an item's definition (itself at most 64 deep, as its reply was) under five levels of the file. */
const BASELINE_MAX_DEPTH = 80;

/** A refusal about a baseline, as one sentence naming it. */
export function baselineProblem(where: string, problem: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', `${where} ${problem}.`);
}

/** JSON pointer token (RFC 6901) of a member name. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON string as RFC 8785 writes it (JSON.stringify's escaping; the value is already well-formed). */
function writeString(text: string): string {
  if (!text.isWellFormed()) throw new CanonicalizationError('a string holds a lone surrogate');
  return JSON.stringify(text);
}

/**
 * The baseline layout of a JSON value (module comment), and the line on which each member up to
 * `depth` levels deep starts (array elements too), by JSON pointer (`/servers/x/tools/echo` → 14;
 * lines from 1). The root starts on line 1.
 */
export function baselineLayout(value: JsonValue, depth = 5): { text: string; lines: Map<string, number> } {
  const lines = new Map<string, number>();
  let line = 1;
  const parts: string[] = [];
  const write = (v: JsonValue, indent: string, pointer: string, level: number): void => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new CanonicalizationError('a number is not finite');
      parts.push(typeof v === 'string' ? writeString(v) : JSON.stringify(v));
      return;
    }
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return void parts.push('[]');
      parts.push('[');
      v.forEach((element, i) => {
        parts.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
        line += 1;
        if (level < depth) lines.set(`${pointer}/${i}`, line);
        write(element, inner, `${pointer}/${i}`, level + 1);
      });
      parts.push(`\n${indent}]`);
      line += 1;
      return;
    }
    const names = Object.keys(v)
      .filter((name) => v[name] !== undefined)
      .sort();
    if (names.length === 0) return void parts.push('{}');
    parts.push('{');
    names.forEach((name, i) => {
      parts.push(i === 0 ? `\n${inner}` : `,\n${inner}`);
      line += 1;
      const at = `${pointer}/${pointerToken(name)}`;
      if (level < depth) lines.set(at, line);
      parts.push(`${writeString(name)}: `);
      write(v[name]!, inner, at, level + 1);
    });
    parts.push(`\n${indent}}`);
    line += 1;
  };
  write(value, '', '', 0);
  parts.push('\n');
  return { text: parts.join(''), lines };
}

/** The bytes of a baseline as svc writes them (module comment). */
export function baselineText(value: JsonValue): string {
  return baselineLayout(value, 0).text;
}

/** A baseline file read: its value (format, version and hash profile checked) and the line of each member. */
export interface BaselineDocument {
  value: JsonObject;
  /** The line each member up to the depth asked for starts on, by JSON pointer (baselineLayout). */
  lines: Map<string, number>;
}

/**
 * The envelope of a baseline value (a file's or a request body's): `format`, `version` (a newer one
 * is refused with what to do), `hashProfile`.
 */
export function checkEnvelope(value: JsonValue, where: string, format: string): JsonObject {
  if (!isJsonObject(value)) throw baselineProblem(where, `is not a JSON object, so not an ${format} file`);
  if (value['format'] !== format) {
    const other = typeof value['format'] === 'string' ? ` (its format is ${JSON.stringify(value['format'].slice(0, 40))})` : '';
    throw baselineProblem(where, `is not an ${format} file${other}`);
  }
  const version = value['version'];
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) throw baselineProblem(where, '"version" is not a positive integer');
  if (version > BASELINE_VERSION)
    throw baselineProblem(where, `is format version ${version}, from a newer svc; this svc reads version ${BASELINE_VERSION} (upgrade svc to read it)`);
  if (version !== BASELINE_VERSION) throw baselineProblem(where, `is format version ${version}; this svc reads version ${BASELINE_VERSION}`);
  if (value['hashProfile'] !== HASH_PROFILE) {
    const profile = typeof value['hashProfile'] === 'string' ? JSON.stringify(value['hashProfile'].slice(0, 40)) : 'missing';
    throw baselineProblem(
      where,
      `was fingerprinted with the hash profile ${profile}, not ${HASH_PROFILE}: its fingerprints cannot be compared (approve the inventory again)`,
    );
  }
  return value;
}

/**
 * A baseline file's bytes: decoded, parsed strictly, its envelope checked, and its layout
 * checked against svc's (module comment). The members beyond the envelope are the kind's to check.
 */
export function readBaselineBytes(bytes: Uint8Array, where: string, format: string, depth = 5): BaselineDocument {
  if (bytes.length > BASELINE_MAX_BYTES) throw baselineProblem(where, `is larger than ${BASELINE_MAX_BYTES} bytes (16 MiB)`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw baselineProblem(where, 'is not UTF-8 text');
  }
  if (text.startsWith('\uFEFF')) throw baselineProblem(where, 'starts with a byte order mark, which JSON forbids');
  text = text.replace(/\r\n/g, '\n');
  let value: JsonValue;
  try {
    value = parseJsonStrict(text, { maxDepth: BASELINE_MAX_DEPTH });
  } catch (err) {
    throw new ProblemError('INVALID_REQUEST', `${describeJsonError(err, where)}.`);
  }
  const envelope = checkEnvelope(value, where, format);
  // One pass lays the value out and finds its lines.
  const laid = baselineLayout(envelope, depth);
  if (laid.text !== text) {
    const line = firstDifferentLine(laid.text, text);
    throw baselineProblem(
      where,
      `is not laid out as svc writes a baseline (line ${line} differs): it was edited by hand or reformatted; approve again to rewrite it`,
    );
  }
  return { value: envelope, lines: laid.lines };
}

/** The first line (from 1) where two texts differ. */
function firstDifferentLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i += 1;
  return i + 1;
}

/** Members of an object beyond `allowed`: named in a refusal, never ignored. */
export function onlyKnownMembers(value: JsonObject, allowed: readonly string[], where: string): void {
  const unknown = Object.keys(value).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw baselineProblem(where, `has a member svc does not know: ${JSON.stringify(unknown[0]!.slice(0, 60))}`);
}

/** `"name"` of a member as a refusal quotes it (cut, JSON-escaped). */
export function quoted(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 77)}...` : name);
}
