/** `svc config show` and `svc config path` (registered in command.ts). */
import { CONFIG_KEYS, type ConfigKey } from '../../cmdutil/config-keys.js';
import { configCandidates, configState, findConfig, type ConfigState } from '../../cmdutil/config-lookup.js';
import { ENVIRONMENT } from '../../cmdutil/environment.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { table } from '../../cmdutil/table.js';
import { MIN_TEXT_WIDTH, outputWidth, wrapWords } from '../../cmdutil/layout.js';
import { redactedUrl } from '../../../store/postgres/url.js';
import type { ConfigPathOptions, ConfigShowOptions } from './options.js';

export interface ShownSetting {
  key: string;
  variable: string;
  /** The value as the variable holds it; null when unset (the default applies). */
  value: string | null;
  /** `default`, `file <path>`, `env <variable>` (env SVC_CACHE_TTL) or `flag <flag>` (flag --db). */
  origin: string;
  /** What applies when unset (the environment table's words). */
  default: string;
}

export interface ShownConfig {
  /** The config file read, or null. */
  file: string | null;
  /** Where svc looked, in order. */
  searched: Array<{ path: string; by: string }>;
  settings: ShownSetting[];
}

const REDACTED = 'set (redacted)';

/** Each mapped setting: the flag's value, else the environment's, else the file's, else the default. */
export function shownConfig(state: ConfigState, options: ConfigShowOptions): ShownConfig {
  const flags: Record<string, string | undefined> = {
    '--egress-allow': options.egressAllow !== undefined && options.egressAllow.length > 0 ? options.egressAllow.join(',') : undefined,
    '--db': options.db,
    '--daemon': options.daemon,
    '--gateway-port': options.gatewayPort,
  };
  const settings = CONFIG_KEYS.map((k): ShownSetting => {
    const fallback = ENVIRONMENT.find((v) => v.name === k.variable)?.default ?? '';
    const fromFile = state.file?.values.get(k.variable);
    const fromEnv = state.env[k.variable];
    const fromFlag = k.flag !== undefined ? flags[k.flag] : undefined;
    let shown: { value: string; origin: string } | null = null;
    if (fromEnv !== undefined && fromEnv !== '') shown = { value: fromEnv, origin: `env ${k.variable}` };
    else if (fromFile !== undefined) shown = { value: fromFile.value, origin: `file ${state.file!.path}` };
    if (fromFlag !== undefined) {
      // --egress-allow adds to SVC_EGRESS_ALLOW; the other flags replace their setting.
      const value = k.flag === '--egress-allow' && shown !== null ? `${shown.value},${fromFlag}` : fromFlag;
      shown = { value, origin: `flag ${k.flag}` };
    }
    return { key: k.key, variable: k.variable, value: shown === null ? null : redacted(k, shown.value), origin: shown?.origin ?? 'default', default: fallback };
  });
  return { file: state.file?.path ?? null, searched: state.candidates.map((c) => ({ path: c.path, by: c.by })), settings };
}

function redacted(k: ConfigKey, value: string): string {
  if (k.secret) return REDACTED;
  if (k.variable === 'SVC_DATABASE_URL' || k.flag === '--db') return /^postgres(ql)?:\/\//i.test(value) ? redactedUrl(value) : value;
  return value;
}

function lookup(io: CliIo): ConfigState {
  // The preAction hook has run the lookup; a program built without it (a test) looks now.
  return configState(io) ?? { candidates: configCandidates(undefined, io.env), file: null, env: io.env };
}

export function configShowAction(io: CliIo, setExit: (code: number) => void, options: ConfigShowOptions): void {
  const shown = shownConfig(lookup(io), options);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    const head = shown.file !== null ? `config file: ${shown.file}` : `config file: none (looked for ${shown.searched.map((s) => s.path).join(', ')})`;
    // The origin's first word only (the file is named in the first line, a variable or flag by
    // --json), and the value last: a row then fits 80 columns but for a long default's words.
    const rows = shown.settings.map((s) => [s.key, s.origin.split(' ')[0]!, s.value ?? s.default]);
    io.stdout.write(`${head}\n\n${hangingValues(table(['KEY', 'ORIGIN', 'VALUE'], rows), outputWidth(io.stdout, io.env))}`);
  }
  setExit(EXIT.PASS);
}

export function configPathAction(io: CliIo, setExit: (code: number) => void, options: ConfigPathOptions): void {
  const state = lookup(io);
  const found = state.file !== null ? { path: state.file.path, by: state.file.by } : (findConfig(state.candidates) ?? null);
  const searched = state.candidates.map((c) => ({ path: c.path, by: c.by }));
  if (options.json) io.stdout.write(`${JSON.stringify({ file: found?.path ?? null, by: found?.by ?? null, searched }, null, 2)}\n`);
  else if (found !== null) io.stdout.write(`${found.path}\n`);
  else io.stderr.write(`svc: no config file; looked for ${searched.map((s) => `${s.path} (${s.by})`).join(', ')}\n`);
  setExit(found !== null ? EXIT.PASS : EXIT.CHECK_FAILED);
}

/** A table whose last column (the value) wraps at `width`, its continuation lines under it. */
function hangingValues(text: string, width: number): string {
  const lines = text.split('\n');
  const header = lines[0] ?? '';
  const at = header.indexOf('VALUE');
  if (at <= 0 || width - at < MIN_TEXT_WIDTH) return text;
  return lines
    .flatMap((line) => {
      if (line.length <= width) return [line];
      const [first = '', ...rest] = wrapWords(line.slice(at), width - at);
      return [line.slice(0, at) + first, ...rest.map((part) => ' '.repeat(at) + part)];
    })
    .join('\n');
}
