/**
 * Tool classes (docs/agents.md#classes-and-risk-signals): what a server claims about a tool
 * (`declaredClass`, read from its ToolAnnotations only) and what svc estimates from the tool's own
 * text (`heuristicClass`). The two are computed by separate functions from separate inputs and are
 * reported side by side; neither corrects the other. A tool that says it is read-only while its
 * name says `delete` is exactly what a reader should see, so nothing here reconciles them.
 */
import type { JsonObject, JsonValue } from '../encoding/json.js';
import { behaviourFindings, type BehaviourFinding } from './behaviour.js';
import { ANNOTATION_HINTS, type AnnotationHint, type DeclaredClass, type DeclaredHints, type HeuristicClass, type ToolParameter } from './types.js';

/** The text of a tool definition svc reads its estimates from. */
export interface ToolText {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: JsonValue | null;
}

function isObject(value: JsonValue | null | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HINT_NAMES = Object.keys(ANNOTATION_HINTS) as AnnotationHint[];

/**
 * The declared class and the four behaviour hints. A hint counts as explicit only when the server
 * sent a boolean; anything else (absent, `"true"`, 1, null) is not a value the MCP schema allows,
 * so the MCP default applies and the hint is reported as `default` — a client would do the same.
 *
 * read_only when readOnlyHint is true (destructiveHint is then meaningless); else additive when
 * destructiveHint is false; else destructive. The last is the MCP default: a tool without
 * annotations is one that may destroy, and is reported so rather than as "unknown".
 */
export function declaredClassOf(annotations: JsonObject | null): { declaredClass: DeclaredClass; declaredHints: DeclaredHints } {
  const declaredHints = {} as DeclaredHints;
  for (const hint of HINT_NAMES) {
    const value = annotations?.[hint];
    declaredHints[hint] = typeof value === 'boolean' ? { value, source: 'explicit' } : { value: ANNOTATION_HINTS[hint], source: 'default' };
  }
  const declaredClass: DeclaredClass = declaredHints.readOnlyHint.value ? 'read_only' : declaredHints.destructiveHint.value ? 'destructive' : 'additive';
  return { declaredClass, declaredHints };
}

/**
 * The words of a tool or parameter name, lower-cased: camelCase and PascalCase humps (acronyms
 * kept whole: `getHTTPStatus` → get, http, status), and anything that is not an ASCII letter or
 * digit (`_`, `-`, `.`, `/`, spaces) separates words. Word matching is what keeps `evaluate` from
 * reading as `eval` and `dropdown` from reading as `drop`. Both splits look at one or two
 * characters ahead only (no `[A-Z]+` that would backtrack over a long run of capitals), so a
 * hostile 100 KB name is split in linear time.
 */
export function nameWords(name: string): string[] {
  const ascii = asciiNameWords(name);
  if (ascii !== null) return ascii;
  return name
    .replace(/([a-z0-9])(?=[A-Z])/g, '$1 ')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * nameWords of an all-ASCII name in one pass, without the intermediate strings (null for any
 * other name). A word ends before an upper-case letter that follows a lower-case letter or a
 * digit, and before an upper-case letter that follows one and precedes a lower-case one — the
 * two replacements of nameWords, which cannot interact: each inserts its space only next to a
 * character the other requires to be of the opposite case.
 */
function asciiNameWords(name: string): string[] | null {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : 0;
    if (c > 0x7f) return null;
    const alnum = isLower(c) || isUpper(c) || isDigit(c);
    if (start >= 0) {
      const p = name.charCodeAt(i - 1);
      const hump = isUpper(c) && (isLower(p) || isDigit(p) || (isUpper(p) && isLower(name.charCodeAt(i + 1))));
      if (!alnum || hump) {
        words.push(name.slice(start, i).toLowerCase());
        start = -1;
      }
    }
    if (alnum && start < 0) start = i;
  }
  return words;
}

/**
 * Words that on their own mark a tool that runs commands or code. `eval` is matched as a whole
 * word only (`evaluate_expression` is a calculator). `system` is not here: `get_system_info` is
 * common and harmless; see EXECUTE_PAIRS and `isExecuteName`.
 */
export const EXECUTE_WORDS: ReadonlySet<string> = new Set([
  'exec',
  'execute',
  'shell',
  'eval',
  'bash',
  'sh',
  'zsh',
  'cmd',
  'powershell',
  'pwsh',
  'spawn',
  'subprocess',
  'terminal',
  'repl',
  'runcommand',
  'runshell',
  'execcommand',
  'shellexec',
]);

/** Adjacent word pairs that mark command execution: `run_command`, `runScript`, `system_call`. */
const EXECUTE_PAIRS: Readonly<Record<string, ReadonlySet<string>>> = {
  run: new Set([
    'command',
    'commands',
    'cmd',
    'script',
    'scripts',
    'code',
    'shell',
    'process',
    'program',
    'python',
    'javascript',
    'js',
    'node',
    'bash',
    'snippet',
  ]),
  system: new Set(['command', 'commands', 'cmd', 'call', 'exec']),
  os: new Set(['system', 'exec', 'command']),
  child: new Set(['process']),
};

/** Whether a name's words mark a command runner (shared with the `shell_exec_name` signal). */
export function executeWordOf(words: readonly string[]): string | null {
  if (words.length === 1 && words[0] === 'system') return 'system';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (EXECUTE_WORDS.has(word)) return word;
    const next = words[i + 1];
    if (next !== undefined && EXECUTE_PAIRS[word]?.has(next)) return `${word}_${next}`;
  }
  return null;
}

/**
 * Verb tables of the heuristic classes. MCP's notion of destructive is "may perform destructive
 * updates to its environment", so verbs that change or replace something that exists (update,
 * set, write, move, rename, edit, close, revert…) are destructive, not only those that delete;
 * additive verbs only add (create, send, upload, install, start…).
 *
 * `download` is additive, not read_only: in the servers that offer it (filesystem, browser,
 * storage tools) it writes a file to the machine the server runs on, which changes that
 * environment. Where the estimate is unsure it leans to the class with the larger effect.
 */
export const HEURISTIC_VERBS = {
  destructive: [
    'delete',
    'remove',
    'rm',
    'rmdir',
    'del',
    'unlink',
    'drop',
    'truncate',
    'destroy',
    'purge',
    'wipe',
    'erase',
    'clear',
    'kill',
    'terminate',
    'overwrite',
    'update',
    'set',
    'unset',
    'write',
    'move',
    'mv',
    'rename',
    'reset',
    'revoke',
    'disable',
    'uninstall',
    'replace',
    'patch',
    'edit',
    'modify',
    'change',
    'cancel',
    'close',
    'archive',
    'revert',
    'restore',
    'transfer',
  ],
  additive: [
    'create',
    'add',
    'insert',
    'append',
    'post',
    'send',
    'upload',
    'publish',
    'submit',
    'push',
    'save',
    'put',
    'register',
    'invite',
    'comment',
    'schedule',
    'book',
    'enable',
    'install',
    'start',
    'launch',
    'open',
    'new',
    'download',
    'reply',
    'share',
    'fork',
    'clone',
    'copy',
    'import',
    'subscribe',
    'notify',
  ],
  read_only: [
    'get',
    'list',
    'read',
    'search',
    'find',
    'fetch',
    'query',
    'describe',
    'show',
    'view',
    'lookup',
    'look',
    'check',
    'count',
    'inspect',
    'browse',
    'summarize',
    'summarise',
    'resolve',
    'validate',
    'verify',
    'status',
    'info',
    'whoami',
    'retrieve',
    'return',
    'explain',
    'compare',
    'calculate',
    'compute',
    'analyze',
    'analyse',
    'preview',
    'diff',
    'grep',
    'ping',
    'echo',
    'lint',
    'explore',
    'scan',
    'stat',
    'stats',
    'peek',
    'watch',
  ],
} as const satisfies Record<'destructive' | 'additive' | 'read_only', readonly string[]>;

type VerbClass = keyof typeof HEURISTIC_VERBS;

/** Strongest first: the order in which classes win over one another. */
const VERB_CLASS_ORDER: readonly VerbClass[] = ['destructive', 'additive', 'read_only'];

const VERB_CLASS: ReadonlyMap<string, VerbClass> = new Map(VERB_CLASS_ORDER.flatMap((cls) => HEURISTIC_VERBS[cls].map((verb) => [verb, cls] as const)));

const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'then']);

function stronger(a: VerbClass, b: VerbClass): VerbClass {
  return VERB_CLASS_ORDER.indexOf(a) <= VERB_CLASS_ORDER.indexOf(b) ? a : b;
}

/**
 * The class of the verb among a list of words. The verb is the first word found in a verb
 * table, wherever it stands (`delete_file` and `file_delete` alike); later words are objects,
 * not verbs (`get_post` reads a post, `list_open_issues` opens nothing), except verbs joined by
 * and/or/then, which count too with the stronger class winning (`get_or_create_user` is
 * additive, `search_and_replace` destructive).
 */
function verbClassOf(words: readonly string[]): VerbClass | null {
  let found: VerbClass | null = null;
  for (let i = 0; i < words.length; i++) {
    const cls = VERB_CLASS.get(words[i]!);
    if (cls === undefined) continue;
    if (found === null) found = cls;
    else if (CONJUNCTIONS.has(words[i - 1]!)) found = stronger(found, cls);
  }
  return found;
}

/** "Use this tool to", "This tool", "Tool that"… before a description's first verb. */
const DESCRIPTION_LEAD = /^\s*(?:(?:use\s+)?this\s+tool\s+(?:to\s+|will\s+|can\s+)?|use\s+(?:this\s+)?to\s+|(?:a\s+)?tool\s+(?:to|that|for)\s+)?/i;

/** The first word of a description as a verb: "Gets" → get, "Searches" → search, "Queries" → query. */
function descriptionVerb(description: string): VerbClass | null {
  const match = /^[A-Za-z]+/.exec(description.replace(DESCRIPTION_LEAD, ''));
  if (match === null) return null;
  const word = match[0].toLowerCase();
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  for (const form of forms) {
    const cls = VERB_CLASS.get(form);
    if (cls !== undefined) return cls;
  }
  return null;
}

/**
 * The behaviour findings of a tool (behaviour.ts): what its name, title, description and
 * parameters say it does. One reading serves both the class (below) and the risk signals
 * (signals.ts). A name that already says it runs commands (`shell_exec_name`) is not repeated by
 * the weaker parameter rule for executes_code.
 */
export function toolBehaviours(tool: ToolText, parameters: readonly ToolParameter[] = parametersOf(tool.inputSchema)): BehaviourFinding[] {
  const nameExecutes = executeWordOf(nameWords(tool.name)) !== null;
  return behaviourFindings({ name: tool.name, title: tool.title, description: tool.description, parameters }, nameWords, nameExecutes);
}

/**
 * svc's estimate of what a tool does, with this precedence: execute > destructive > additive >
 * sensitive_read > read_only > unknown.
 *
 * - execute: a name word of EXECUTE_WORDS or an EXECUTE_PAIRS pair (`run_command`, `bash`,
 *   `exec`; `system` only as the whole name) — the `shell_exec_name` signal — or any
 *   `executes_code` evidence: a title, description or parameter description that says it runs
 *   commands or code ("Execute a shell command", "Python code to evaluate"), or a
 *   run/invoke/exec/call-named tool with a `command`/`script`/`code` parameter. A tool that runs
 *   commands can do anything, so it outranks every verb. The class is `execute` exactly when
 *   one of those two signals is raised.
 * - otherwise the verb of the name (see verbClassOf); failing that, of the title; failing that,
 *   the first word of the description ("Get the weather forecast" → read_only).
 * - a tool that would so be read_only or unknown but whose text says it writes files
 *   (`writes_files`: "saves the screenshot to the given path") takes the class of that verb
 *   (save, create, copy, download: additive; write, overwrite, delete, move, edit and any verb
 *   the tables do not know: destructive). Its own words say it changes the file system.
 * - sensitive_read: a tool that would so be read_only or unknown but whose text says it reads
 *   the process environment (`reads_environment`: `get-env`, "Returns all environment
 *   variables"). It changes nothing, so it is not additive or destructive; but the environment is
 *   where a server keeps its API keys, tokens and database passwords, and a tool that returns it
 *   hands them to whoever calls it. Calling that read_only would tell a reader (or a gate that
 *   lets read-only tools through) that it is harmless; calling it unknown would hide what svc
 *   does know. A tool with a stronger class keeps it, its `reads_environment` signal beside it.
 * - Fetching a caller-given URL (`fetches_urls`) does not change the class: a fetch is a read,
 *   and where it reaches is what the signal (and the server's openWorldHint) report.
 * - unknown when none of these gives a class.
 */
export function heuristicClassOf(tool: ToolText, behaviours: readonly BehaviourFinding[] = toolBehaviours(tool)): HeuristicClass {
  const words = nameWords(tool.name);
  if (executeWordOf(words) !== null) return 'execute';
  if (behaviours.some((finding) => finding.behaviour === 'executes_code')) return 'execute';
  const verbClass =
    verbClassOf(words) ??
    (tool.title !== null ? verbClassOf(nameWords(tool.title)) : null) ??
    (tool.description !== null ? descriptionVerb(tool.description) : null);
  if (verbClass === null || verbClass === 'read_only') {
    const write = behaviours.find((finding) => finding.behaviour === 'writes_files');
    if (write !== undefined) {
      const cls = write.verb !== undefined ? VERB_CLASS.get(write.verb) : undefined;
      return cls === 'additive' ? 'additive' : 'destructive';
    }
    if (behaviours.some((finding) => finding.behaviour === 'reads_environment')) return 'sensitive_read';
  }
  return verbClass ?? 'unknown';
}

function typeOf(type: JsonValue | undefined): string | null {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const names = type.filter((entry): entry is string => typeof entry === 'string');
    return names.length > 0 ? names.join('|') : null;
  }
  return null;
}

/**
 * The top-level parameters of an input schema: its `properties`, in the order the parsed object
 * holds them (JSON text order, except that ECMAScript puts integer-like names first), each
 * `required` when listed in `required`. A property schema that is not an object (`true` is valid
 * JSON Schema) still names a parameter, with no type and no description. Anything that is not an
 * object schema with object `properties` has no parameters svc can read: [].
 */
export function parametersOf(inputSchema: JsonValue | null): ToolParameter[] {
  if (!isObject(inputSchema)) return [];
  const properties = inputSchema['properties'];
  if (!isObject(properties)) return [];
  const requiredList = inputSchema['required'];
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((entry) => typeof entry === 'string') : []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    type: isObject(schema) ? typeOf(schema['type']) : null,
    required: required.has(name),
    description: isObject(schema) && typeof schema['description'] === 'string' ? schema['description'] : null,
  }));
}
