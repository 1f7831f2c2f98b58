/**
 * Reads svc.config.json (loaded only when config-lookup.ts found one): strict I-JSON (the core's
 * parser: a duplicate member is refused, as svc refuses it everywhere), then every member held
 * to CONFIG_KEYS (config-keys.ts). Each refusal is one line naming the file and the key (or, for
 * a file that is not JSON, its line:column), and a usage error (exit 2): an unknown key (with the
 * nearest known one), a value of the wrong type, a secret in the file, a secret file others can
 * read. What it returns are environment values, which the commands check as they check the
 * environment.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { decodeUtf8, isJsonObject, parseJsonStrict, StrictJsonError, type JsonValue } from '../../core/encoding/json.js';
import { CONFIG_KEYS, configSections, REFUSED_KEYS, SECRET_NAME, type ConfigKey } from './config-keys.js';
import type { ConfigState } from './config-lookup.js';
import { usageError } from './errors.js';

/** Largest config file read: a settings file, never a data file. */
const MAX_BYTES = 1024 * 1024;

const SECRET_HINT = 'secrets stay in the environment, or in files named by path (mode 0600)';

const BY_KEY = new Map(CONFIG_KEYS.map((k) => [k.key, k]));

/** The config file's values as environment variables: variable → the key and the value. */
export function readConfigFile(file: string): Map<string, { key: string; value: string }> {
  const refuse = (detail: string, hint = "'svc config show' lists every key; docs/configuration.md has an example file") =>
    usageError(`${file}: ${detail}`, hint);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw refuse(`cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'check the file and its permissions');
  }
  if (bytes.length > MAX_BYTES) throw refuse(`is larger than ${MAX_BYTES} bytes`, 'a settings file holds a few settings');
  const source = decodeUtf8(bytes);
  if (source === null) throw refuse('is not UTF-8 text', 'save it as UTF-8');
  let document: JsonValue;
  try {
    document = parseJsonStrict(source.replace(/^\uFEFF/, ''), { maxDepth: 8 });
  } catch (err) {
    if (!(err instanceof StrictJsonError)) throw err;
    const offset = source.startsWith('\uFEFF') ? err.position + 1 : err.position;
    const reason = err.kind === 'duplicate-member' ? `duplicate member "${err.pointer?.split('/').pop() ?? ''}"` : err.message;
    throw usageError(`${file}:${lineColumn(source, offset)}: not valid JSON: ${reason}`, 'fix the file (it is strict JSON: no comments, no trailing commas)');
  }
  if (!isJsonObject(document)) throw refuse('must hold a JSON object of sections ({"cache": {"ttl": 600}, …})');

  const values = new Map<string, { key: string; value: string }>();
  for (const [section, members] of Object.entries(document)) {
    if (section === '$schema') {
      if (typeof members !== 'string') throw refuse('$schema must be a string (the URL or path of svc.config.schema.json)');
      continue;
    }
    if (!configSections().includes(section)) {
      // A secret is refused as one wherever it stands, before the key is merely unknown.
      const secret = [section, ...(isJsonObject(members) ? Object.keys(members).map((name) => `${section}.${name}`) : [])].find((key) =>
        SECRET_NAME.test(key.split('.').pop()!),
      );
      if (secret !== undefined) throw refuse(`${secret} looks like a secret, which a shared file must not hold`, SECRET_HINT);
      throw refuse(unknownKey(section));
    }
    if (!isJsonObject(members)) throw refuse(`${section} must be an object of settings, not ${typeName(members)}`);
    for (const [name, value] of Object.entries(members)) {
      const key = `${section}.${name}`;
      const known = BY_KEY.get(key);
      if (known === undefined) {
        const refusal = REFUSED_KEYS[key];
        if (refusal !== undefined) throw refuse(`${key} ${refusal}`, SECRET_HINT);
        if (SECRET_NAME.test(name)) throw refuse(`${key} looks like a secret, which a shared file must not hold`, SECRET_HINT);
        throw refuse(unknownKey(key));
      }
      values.set(known.variable, { key, value: environmentValue(known, value, file, refuse) });
    }
  }
  return values;
}

/** The value of `key` as its variable would hold it; a value of the wrong type is refused. */
function environmentValue(k: ConfigKey, value: JsonValue, file: string, refuse: (detail: string, hint?: string) => Error): string {
  const kind = k.kind;
  const wrong = (expected: string) => refuse(`${k.key} must be ${expected}, not ${typeName(value)}`);
  switch (kind.type) {
    case 'string':
      if (typeof value !== 'string' || value === '') throw wrong('a non-empty string');
      if (k.variable === 'SVC_DATABASE_URL' && hasPassword(value)) {
        throw refuse(
          `${k.key} holds a password, which a shared file must not hold`,
          'leave the password out of the URL and set PGPASSWORD or use ~/.pgpass, or set SVC_DATABASE_URL in the environment',
        );
      }
      if (k.variable === 'SVC_OTEL_ENDPOINT' && hasUserinfo(value)) {
        throw refuse(`${k.key} holds credentials (user:password@), which a shared file must not hold`, 'set SVC_OTEL_ENDPOINT in the environment instead');
      }
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < kind.minimum) throw wrong(`a whole number of at least ${kind.minimum}`);
      return String(value);
    case 'integers':
      if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) {
        throw wrong('a non-empty array of whole numbers');
      }
      return value.join(',');
    case 'list':
      if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string' && v.trim() !== '' && !v.includes(','))) {
        throw wrong('an array of strings (one entry each, no commas)');
      }
      return value.join(',');
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value ? kind.on : kind.off;
    case 'enum':
      if (typeof value !== 'string' || !kind.values.includes(value)) throw wrong(`one of ${kind.values.map((v) => JSON.stringify(v)).join(', ')}`);
      return value;
    case 'path':
    case 'secret-file': {
      if (typeof value !== 'string' || value === '') throw wrong('a file path (relative to the config file)');
      const target = path.resolve(path.dirname(file), value);
      if (kind.type === 'path' && kind.private !== true) return target;
      const stat = statSync(target, { throwIfNoEntry: false });
      if (stat === undefined || !stat.isFile())
        throw refuse(`${k.key}: ${target} ${stat === undefined ? 'does not exist' : 'is not a file'}`, 'name an existing file');
      if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
        throw refuse(`${k.key}: ${target} is open to group or others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`, `run chmod 600 ${target}`);
      }
      if (kind.type === 'path') return target;
      const secret = readFileSync(target, 'utf8').trim();
      if (secret === '') throw refuse(`${k.key}: ${target} is empty`, 'write the secret to the file');
      return secret;
    }
  }
}

/** A URL with a user or password in it (https://user:token@collector). */
function hasUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** A URL with a password in it (postgres://user:password@host/db). */
function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return /^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(url);
  }
}

function typeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'number' ? 'the number' : ''} ${JSON.stringify(value)}`.trim();
}

/** `unknown key cache.tll (did you mean cache.ttl?)`. */
function unknownKey(key: string): string {
  const candidates = key.includes('.') ? CONFIG_KEYS.map((k) => k.key) : configSections();
  const nearest = nearestOf(key, candidates);
  return `unknown key ${key}${nearest !== null ? ` (did you mean ${nearest}?)` : ''}`;
}

/** The candidate nearest `word` by edit distance (case ignored), when near enough to be a likely typo. */
export function nearestOf(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  // A key in the right section with a wrong name (server.rateLimit) is still worth naming.
  const sameSection = best !== null && best.split('.')[0] === word.split('.')[0] && word.includes('.');
  return best !== null && (bestDistance <= Math.max(2, Math.floor(word.length / 3)) || sameSection) ? best : null;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** `line:column` (both from 1) of a UTF-16 offset in `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, Math.min(offset, text.length));
  const line = before.split('\n').length;
  return `${line}:${before.length - before.lastIndexOf('\n')}`;
}

/**
 * A refusal of a setting (`SVC_TRUST_PROXY … refused`) whose value came from the config file
 * names the file and the key too, where the user has to change it.
 */
export function withConfigSource(state: ConfigState | null, detail: string): string {
  if (state?.file == null) return detail;
  const variable = /\b(SVC_[A-Z0-9_]+)\b/.exec(detail)?.[1];
  const set = variable !== undefined ? state.file.values.get(variable) : undefined;
  if (variable === undefined || set === undefined || (state.env[variable] ?? '') !== '') return detail;
  return `${state.file.path}: ${set.key}: ${detail}`;
}
