/**
 * Behaviour signals (docs/agents.md#classes-and-risk-signals): what a tool's own words say it does,
 * hostile or not — reading the process environment, fetching caller-given URLs, running commands or
 * code, writing files. A tool can be perfectly honest and still be one a reader must look at twice:
 * the reference server's `get-env` ("Returns all environment variables") hands every secret of the
 * server's environment to whoever calls it.
 *
 * Everything here works on plain text and plain parameter lists (a name and a description each),
 * so that tools, prompts (arguments) and resources can all be read the same way; the caller
 * decides where a finding is reported. Like the other signals, findings are svc's estimate and
 * are never merged with a server's annotations.
 *
 * How the words are read. Single words are not evidence: "environment" is in "development
 * environment setup guide", "file" in every other description. Each pattern is a phrase — a verb
 * and its object ("returns all environment variables", "create a new file", "fetches a URL"),
 * an object and its purpose ("the command to run", "path of the file to write"), or a fixed
 * token that names the act (`getenv`, "code execution") — matched as whole words,
 * case-insensitively. Between verb and object only a bounded number of listed words may stand
 * (articles, quantifiers, a few adjectives), so a sentence cannot be bridged by chance; the two
 * patterns that allow free words between allow at most six, of letters only, and never cross
 * punctuation. A second kind of rule combines a parameter with words elsewhere (a `url`
 * parameter and the word "fetch"); it is evidence only when nothing in the text says so directly.
 *
 * Labels quote the words that matched, and only words of the patterns' own lists: where free
 * words stood between, the label shows `…`. The server's text itself appears only in the excerpt
 * (signals.ts), made inert there.
 *
 * Every pattern is linear: bounded repetitions of listed words or of bounded-length words, each
 * run once for its first match.
 */

import type { RiskSignalId } from './types.js';

/** The behaviour signals: a subset of RISK_SIGNAL_IDS. */
export const BEHAVIOURS = ['executes_code', 'writes_files', 'reads_environment', 'fetches_urls'] as const satisfies readonly RiskSignalId[];
export type Behaviour = (typeof BEHAVIOURS)[number];

/** A name and a description: a tool parameter, a prompt argument. */
export interface TextParameter {
  name: string;
  description: string | null;
}

/** Something with a name, optional title and description, and parameters: a tool, a prompt. */
export interface BehaviourItem {
  name: string;
  title: string | null;
  description: string | null;
  parameters: readonly TextParameter[];
}

export interface BehaviourHit {
  behaviour: Behaviour;
  /** The text the evidence is in (the excerpt is taken from it). */
  text: string;
  index: number;
  /** svc's words: what was found, quoting only the patterns' own words. */
  label: string;
  /** writes_files: the verb in its base form (write, save, create, delete, move…), for the class. */
  verb?: string;
}

export interface BehaviourFinding extends BehaviourHit {
  location: 'name' | 'title' | 'description' | 'parameter';
  /** The parameter's name when location is `parameter`. */
  parameter?: string;
}

// ---------------------------------------------------------------------------------------------
// Building blocks.

/** Verb forms by base verb; the regex alternation is made from the forms, and a match maps back. */
type VerbForms = Readonly<Record<string, readonly string[]>>;

function alternation(words: readonly string[]): string {
  // Longest first, so that "writes" is tried before "write" (the trailing \b would reject the
  // shorter anyway; this just saves a backtrack).
  return [...words].sort((a, b) => b.length - a.length).join('|');
}

function formsOf(table: VerbForms): string {
  return alternation(Object.values(table).flat());
}

function baseOf(table: VerbForms, form: string): string | undefined {
  const lower = form.toLowerCase();
  for (const [base, forms] of Object.entries(table)) if (forms.includes(lower)) return base;
  return undefined;
}

/** Up to `max` listed words (any case), each followed by whitespace or a hyphen. */
function listed(words: readonly string[], max: number): string {
  return `(?:(?:${alternation(words)})[\\s-]{1,3}){0,${max}}`;
}

/** Up to `max` free words of letters (at most 30 each), each preceded by whitespace. */
function freeWords(max: number): string {
  return `(?:\\s{1,3}[A-Za-z'’-]{1,30}){0,${max}}?`;
}

/** The matched words as a label quotes them: whitespace runs made single spaces, lower-cased. */
function quoted(words: string): string {
  return words.replace(/\s+/g, ' ').toLowerCase();
}

interface PhrasePattern {
  /** Not global; with the `d` flag where `groups` is given. */
  re: RegExp;
  /**
   * Where free words may stand in a match: the groups that hold only the pattern's own words, in
   * order. The label quotes them, joined by `…` where anything else stood between. Without it
   * the whole match is quoted (the pattern matches only its own words).
   */
  groups?: readonly number[];
  /** For writes_files: the group holding the verb. */
  verbGroup?: number;
}

/** The words of a match a label may quote (see PhrasePattern.groups). */
function wordsOf(m: RegExpExecArray, groups: readonly number[] | undefined): string {
  if (groups === undefined || m.indices === undefined) return m[0];
  let words = '';
  let end = -1;
  for (const group of groups) {
    const span = m.indices[group];
    if (span === undefined) continue;
    const piece = m[group]!.trim();
    if (piece === '') continue;
    if (end >= 0) words += /^\s*$/.test(m.input.slice(end, span[0])) ? ' ' : ' … ';
    words += piece;
    end = span[1];
  }
  return words;
}

/**
 * The behaviour's evidence in `text`: of the first match of each pattern, the earliest (the
 * longest where two start together), so that "execute a shell command" is not reported a second
 * time as "execute a shell". None or one hit.
 */
function phraseHits(behaviour: Behaviour, patterns: readonly PhrasePattern[], text: string, verbs?: VerbForms): BehaviourHit[] {
  let best: { m: RegExpExecArray; pattern: PhrasePattern } | null = null;
  for (const pattern of patterns) {
    const m = pattern.re.exec(text);
    if (m === null) continue;
    if (best === null || m.index < best.m.index || (m.index === best.m.index && m[0].length > best.m[0].length)) best = { m, pattern };
  }
  if (best === null) return [];
  const { m, pattern } = best;
  const hit: BehaviourHit = { behaviour, text, index: m.index, label: `the words "${quoted(wordsOf(m, pattern.groups))}"` };
  if (verbs !== undefined && pattern.verbGroup !== undefined) {
    const verb = baseOf(verbs, m[pattern.verbGroup] ?? '');
    if (verb !== undefined) hit.verb = verb;
  }
  return [hit];
}

/** Articles, quantifiers and the like that may stand between any verb and its object. */
const COMMON_QUALIFIERS = [
  'a',
  'an',
  'the',
  'any',
  'all',
  'every',
  'each',
  'one',
  'or',
  'more',
  'multiple',
  'several',
  'given',
  'specified',
  'provided',
  'supplied',
  'arbitrary',
  'its',
  'their',
  'this',
  'that',
  'these',
  'those',
  'single',
  'new',
  'existing',
  'user',
  'target',
];

// ---------------------------------------------------------------------------------------------
// reads_environment: the process environment, where a server keeps its API keys and tokens.

const ENV_VERBS: VerbForms = {
  read: ['read', 'reads', 'reading'],
  return: ['return', 'returns', 'returning'],
  list: ['list', 'lists', 'listing'],
  print: ['print', 'prints', 'printing'],
  dump: ['dump', 'dumps', 'dumping'],
  show: ['show', 'shows', 'showing'],
  display: ['display', 'displays', 'displaying'],
  get: ['get', 'gets', 'getting'],
  fetch: ['fetch', 'fetches', 'fetching'],
  retrieve: ['retrieve', 'retrieves', 'retrieving'],
  expose: ['expose', 'exposes', 'exposing'],
  reveal: ['reveal', 'reveals', 'revealing'],
  output: ['output', 'outputs', 'outputting'],
  echo: ['echo', 'echoes', 'echoing'],
  inspect: ['inspect', 'inspects', 'inspecting'],
  enumerate: ['enumerate', 'enumerates', 'enumerating'],
  access: ['access', 'accesses', 'accessing'],
  load: ['load', 'loads', 'loading'],
  view: ['view', 'views', 'viewing'],
};

const ENV_QUALIFIERS = [
  ...COMMON_QUALIFIERS,
  'current',
  'available',
  'configured',
  'defined',
  'set',
  'selected',
  'specific',
  'named',
  'relevant',
  'your',
  'of',
  'from',
  'raw',
  'full',
  'entire',
  'complete',
  'server',
  "server's",
  'server’s',
  'process',
  'system',
  'shell',
  'runtime',
  'os',
  'host',
  'container',
  'local',
  'secret',
  'sensitive',
  'and',
];

/**
 * What "the environment" is, as an object: environment variables by any spelling (`env vars`,
 * `environment_variables`, `envvars`), the code tokens `process.env` and `os.environ`, or the
 * environment of a named owner ("the process environment", "the server's environment"). A bare
 * "environment" is not one: deployment, development and test environments are everyday words.
 */
const ENV_OBJECT =
  "(?:env(?:ironment)?[\\s_-]?var(?:iable)?s?|process\\.env|os\\.environ|(?:process|shell|server(?:['’]s)?|runtime|host|system|os|container)[\\s-]{1,3}env(?:ironment)?)(?![A-Za-z0-9_])";

const ENV_PATTERNS: readonly PhrasePattern[] = [
  // "Returns all environment variables", "reads the process environment", "prints process.env".
  { re: new RegExp(`\\b(?:${formsOf(ENV_VERBS)})\\s{1,3}${listed(ENV_QUALIFIERS, 4)}${ENV_OBJECT}`, 'i') },
  // "Reads secrets from the environment", "loads the API key from env".
  {
    re: new RegExp(
      `\\b(?:${formsOf(ENV_VERBS)})\\s{1,3}${listed(ENV_QUALIFIERS, 3)}(?:secrets?|credentials?|api[\\s_-]?keys?|keys?|tokens?|passwords?|values?|settings|config(?:uration)?|variables?)\\s{1,3}(?:from|in|out\\s+of)\\s{1,3}(?:(?:the|its)\\s{1,3})?(?:(?:process|server(?:['’]s)?|shell|runtime|system|os|host|container)[\\s-]{1,3})?env(?:ironment)?(?![A-Za-z0-9_-])`,
      'i',
    ),
  },
  // "Name of the environment variable to read".
  { re: /\benv(?:ironment)?[\s_-]?var(?:iable)?s?\s{1,3}to\s{1,3}(?:read|return|get|fetch|look\s+up|print|show|retrieve|inspect)\b/i },
  // The calls that read it: getenv (C, Python's os.getenv, Java's System.getenv), printenv,
  // os.environ (not a bare "environ": French for "about").
  { re: /\b(?:getenv|printenv|os\.environ)\b/i },
];

/** Name words that read (`get_env`, `print_env`, `list_env_vars`). */
const ENV_NAME_VERBS: ReadonlySet<string> = new Set([
  'get',
  'read',
  'list',
  'print',
  'dump',
  'show',
  'display',
  'fetch',
  'return',
  'echo',
  'inspect',
  'view',
  'load',
  'expose',
  'reveal',
]);
/** Name words that change the environment rather than read it (`set_env_vars`). */
const ENV_NAME_SETTERS: ReadonlySet<string> = new Set([
  'set',
  'unset',
  'update',
  'delete',
  'remove',
  'add',
  'create',
  'put',
  'write',
  'export',
  'modify',
  'edit',
  'change',
  'clear',
]);
const ENV_NOUNS: ReadonlySet<string> = new Set(['env', 'envvar', 'envvars']);
const VARIABLES: ReadonlySet<string> = new Set(['var', 'vars', 'variable', 'variables']);

/**
 * reads_environment in a name's words: `getenv`/`printenv`; a reading verb followed by
 * `env`/`envvars` (`get-env`, `print_env`, `dump_envvars`) or by `environment variables`
 * (`list_environment_variables`); or the noun pair env/environment + vars/variables
 * (`env_vars`, `environment_variables`) unless a changing verb comes just before
 * (`set_env_vars`). A bare `environment` is not one: `get_environment`, in the deployment APIs,
 * returns a deployment environment. `envs` is not one either (conda environments).
 */
function environmentNameWords(words: readonly string[]): string | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'getenv' || word === 'printenv') return word;
    const next = words[i + 1];
    if (next === undefined) continue;
    const after = words[i + 2];
    if ((ENV_NOUNS.has(word) || word === 'environment') && VARIABLES.has(next) && !ENV_NAME_SETTERS.has(words[i - 1] ?? '')) {
      return `${word} ${next}`;
    }
    if (!ENV_NAME_VERBS.has(word)) continue;
    if (ENV_NOUNS.has(next)) return `${word} ${next}`;
    if (next === 'environment' && after !== undefined && VARIABLES.has(after)) return `${word} ${next} ${after}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// fetches_urls: a tool that requests a URL its caller chooses (server-side requests reach what
// the server can reach; the URL itself can carry data out).

const FETCH_VERBS = [
  'fetch',
  'fetches',
  'fetching',
  'download',
  'downloads',
  'downloading',
  'retrieve',
  'retrieves',
  'retrieving',
  'request',
  'requests',
  'requesting',
  'crawl',
  'crawls',
  'crawling',
  'scrape',
  'scrapes',
  'scraping',
  'load',
  'loads',
  'loading',
  'open',
  'opens',
  'opening',
  'visit',
  'visits',
  'visiting',
  'navigate',
  'navigates',
  'navigating',
  'browse',
  'browses',
  'browsing',
];

const FETCH_QUALIFIERS = [
  ...COMMON_QUALIFIERS,
  'remote',
  'external',
  'public',
  'caller',
  'content',
  'contents',
  'data',
  'html',
  'text',
  'of',
  'from',
  'at',
  'to',
  'whole',
  'full',
  'entire',
  'web',
  'http',
  'https',
  'raw',
  'specific',
  'user-provided',
  'user-supplied',
  'user-specified',
];

/**
 * What is fetched: a URL or URI, a web page, a website. Not "the URL of/for …" (a URL returned,
 * not fetched), nor "website settings", "URL encoding" and the like.
 */
const URL_OBJECT =
  '(?:urls?|uris?|web[\\s-]?pages?|websites?|web\\s{1,3}sites?)\\b(?![\\s-]{1,3}(?:of|for|settings|config|configuration|shortener|encoding|encoded|builder|template|name|names)\\b)';

const FETCH_PATTERNS: readonly PhrasePattern[] = [
  // "Fetches a URL", "navigate to a URL", "downloads the content of any web page".
  { re: new RegExp(`\\b(?:${alternation(FETCH_VERBS)})\\s{1,3}${listed(FETCH_QUALIFIERS, 4)}${URL_OBJECT}`, 'i') },
  // "Downloads a file from a URL", "reads the page at the given URL": verb … from/at a URL.
  {
    re: new RegExp(
      `\\b(${alternation([...FETCH_VERBS, 'read', 'reads', 'reading', 'get', 'gets', 'getting'])})${freeWords(6)}\\s{1,3}((?:from|at)\\s{1,3}${listed(FETCH_QUALIFIERS, 3)}${URL_OBJECT})`,
      'di',
    ),
    groups: [1, 2],
  },
  // "Makes HTTP requests to arbitrary endpoints", "sends a request to the given URL".
  {
    re: new RegExp(
      `(?:\\b(?:https?|get|post|put|patch|delete|head|web)\\s{1,3}requests?|\\b(?:make|makes|making|send|sends|sending|perform|performs|performing|issue|issues|issuing)\\s{1,3}(?:(?:an?|the)\\s{1,3})?requests?)\\s{1,3}(?:to|against)\\s{1,3}${listed(FETCH_QUALIFIERS, 3)}(?:urls?|uris?|endpoints?|hosts?|servers?|websites?|addresses|apis?)\\b`,
      'i',
    ),
  },
  // "Crawls a website", "scrapes web pages", "a web scraper".
  {
    re: new RegExp(
      `\\b(?:crawl|crawls|crawling|scrape|scrapes|scraping|spider|spiders)\\s{1,3}${listed(FETCH_QUALIFIERS, 4)}(?:urls?|web[\\s-]?pages?|pages?|websites?|sites?|domains?)\\b|\\bweb\\s{1,3}(?:scraping|scraper|crawling|crawler)\\b`,
      'i',
    ),
  },
  // "URL to fetch", "the URI to download".
  {
    re: /\b(?:urls?|uris?)\s{1,3}to\s{1,3}(?:be\s{1,3})?(?:fetch|fetched|download|downloaded|crawl|crawled|scrape|scraped|request|requested|retrieve|retrieved|load|loaded|open|opened|visit|visited|read)\b/i,
  },
];

/** Parameter name words that make it a URL parameter. */
const URL_PARAMETER_WORDS: ReadonlySet<string> = new Set(['url', 'urls', 'uri', 'uris', 'endpoint', 'href', 'webhook', 'website']);

/** A parameter description that says what the parameter is: "URL …", "The full URL …", "A URI …". */
const URL_DESCRIPTION_START =
  /^\s{0,3}(?:(?:the|an?)\s{1,3})?(?:(?:full|absolute|remote|http|https|web|target|source|page|website|base|request|image|file|document|feed|resource)[\s-]{1,3}){0,2}(?:urls?|uris?)\b/i;

/**
 * A parameter described as the URL of content the tool works on: "URL or data URI of the file
 * content to compress", "URL of the image to analyse", "URI of the page". The tool reads what is
 * there. Anchored at the start of the description (the parameter *is* that URL): "Returns the URL
 * of the file" elsewhere is a result, not a fetch.
 */
const CONTENT_URL =
  /^\s{0,3}(?:(?:the|an?)\s{1,3})?(urls?|uris?)\b(?:\s{1,3}or\s{1,3}[A-Za-z-]{1,20}(?:\s{1,3}(?:urls?|uris?))?)?\s{1,3}((?:of|for|pointing\s+to)\s{1,3}(?:(?:the|an?)\s{1,3})?(?:(?:file|page|web|remote|source|input|image|document|html|pdf|json|csv|text|raw)[\s-]{1,3}){0,2}(?:content|contents|files?|pages?|documents?|data|images?|resources?|feeds?|archives?))\b/di;

/** Words that say a request is made, for a URL parameter. */
const FETCH_WORDS =
  /\b(?:fetch|fetches|fetched|fetching|download|downloads|downloaded|downloading|crawl|crawls|crawled|crawling|scrape|scrapes|scraped|scraping|https?\s{1,3}(?:requests?|get|post|calls?)|(?:get|post)\s{1,3}requests?)\b/i;

// ---------------------------------------------------------------------------------------------
// executes_code: runs commands or code. The name's evidence is `shell_exec_name` (classes.ts,
// executeWordOf); this is the evidence of the title, description and parameters.

/**
 * Languages and shells whose code a tool may run. Not a bare `node` ("run node health checks" is
 * about a cluster node) nor `ts`.
 */
const LANGUAGES = 'python|javascript|typescript|js|node\\.?js|bash|shell|sh|zsh|powershell|ruby|perl|php|lua|deno';

const EXECUTE_PATTERNS: readonly PhrasePattern[] = [
  // "Execute a shell command", "runs arbitrary Python code", "evaluates the given JavaScript
  // snippet": a verb of running, at most four qualifying words, then command/code/script.
  // "Run a SQL query" and "evaluates a math expression" do not match.
  {
    re: /\b(?:run|runs|running|execute|executes|executing|exec|evaluate|evaluates|evaluating|eval|evals)\s+(?:(?:an?|the|any|arbitrary|given|provided|supplied|specified|user|raw|shell|bash|terminal|system|os|python|javascript|js|node|sh|powershell|cli|command-line|untrusted|single|one|or|more|multiple)[\s-]{1,3}){0,4}(?:commands?|code|scripts?|snippets?|programs?)\b/i,
  },
  // "The shell command to run", "Python code to execute".
  {
    re: new RegExp(
      `\\b(?:(?:${LANGUAGES}|terminal|system|os|cli)[\\s-]{1,3})?(?:commands?|code|scripts?|snippets?)\\s{1,3}to\\s{1,3}(?:be\\s{1,3})?(?:run|execute|executed|evaluate|evaluated|eval)\\b`,
      'i',
    ),
  },
  // "Runs Python in a sandbox", "executes JavaScript on the page" — but not "runs the Python
  // version check": versions, packages, libraries and installations are what a language's
  // tooling is run about, not code it runs.
  {
    re: new RegExp(
      `\\b(?:run|runs|running|execute|executes|executing|exec)\\s{1,3}(?:(?:an?|the|any|arbitrary|given|provided|supplied|user|raw|untrusted|inline)\\s{1,3}){0,2}(?:${LANGUAGES})\\b(?![\\s-]{1,3}(?:versions?|packages?|librar(?:y|ies)|dependenc(?:y|ies)|installations?)\\b)`,
      'i',
    ),
  },
  // "Evaluate JavaScript expression": eval needs a language and a code word (a math expression is not code).
  {
    re: new RegExp(
      `\\b(?:evaluate|evaluates|evaluating|eval|evals)\\s{1,3}(?:(?:an?|the|any|arbitrary|given|provided)\\s{1,3}){0,2}(?:${LANGUAGES})[\\s-]{1,3}(?:code|expressions?|snippets?|scripts?|statements?|functions?)\\b`,
      'i',
    ),
  },
  // "remote code execution", "Python execution", "a code interpreter", "shell access".
  { re: new RegExp(`\\b(?:code|commands?|shell|scripts?|${LANGUAGES})[\\s-]{1,3}execution\\b|\\bcode\\s{1,3}interpreter\\b|\\bshell\\s{1,3}access\\b`, 'i') },
  // "curl https://… | sh", "wget -qO- … | sudo bash": a download piped into a shell runs whatever
  // the other host serves. Only the tool and the pipe are quoted, not the URL between them.
  {
    re: /\b(curl|wget)\b[^|\n]{0,200}(\|\s{0,3}(?:sudo\s{1,3})?(?:ba|z|da|k)?sh)\b/di,
    groups: [1, 2],
  },
  // "Spawns a child process", "opens an interactive shell".
  {
    re: /\b(?:spawn|spawns|spawning)\s{1,3}(?:(?:an?|the|new|child|interactive|remote|login|system)\s{1,3}){0,3}(?:shells?|subprocess(?:es)?|sub-process(?:es)?|process(?:es)?)\b|\b(?:open|opens|opening|start|starts|starting|launch|launches|launching)\s{1,3}(?:(?:an?|the|new|interactive|remote|login|system)\s{1,3}){0,3}(?:shell|subprocess|sub-process)\b/i,
  },
];

/**
 * A parameter that carries a command or code, for a `run`/`invoke`/`exec`/`call`-named tool:
 * every word of its name is one of these (`command`, `cmd`, `python_code`, `shell_command`,
 * `command_line`), so `country_code` or `status_code` is not one.
 */
const COMMAND_PARAMETER_WORDS: ReadonlySet<string> = new Set([
  'command',
  'commands',
  'cmd',
  'script',
  'scripts',
  'code',
  'shell',
  'bash',
  'sh',
  'python',
  'javascript',
  'js',
  'node',
  'powershell',
  'source',
  'raw',
  'line',
  'snippet',
]);
const COMMAND_PARAMETER_CORE: ReadonlySet<string> = new Set(['command', 'commands', 'cmd', 'script', 'scripts', 'code', 'snippet']);
const RUN_VERBS: ReadonlySet<string> = new Set(['run', 'invoke', 'exec', 'execute', 'call']);

/** Whether a parameter's name words make it one that carries a command or code. */
function isCommandParameter(words: readonly string[]): boolean {
  return words.length > 0 && words.every((word) => COMMAND_PARAMETER_WORDS.has(word)) && words.some((word) => COMMAND_PARAMETER_CORE.has(word));
}

// ---------------------------------------------------------------------------------------------
// writes_files: creates, changes, moves or deletes files or directories.

const WRITE_VERBS: VerbForms = {
  write: ['write', 'writes', 'writing', 'written'],
  save: ['save', 'saves', 'saving', 'saved'],
  create: ['create', 'creates', 'creating', 'created'],
  delete: ['delete', 'deletes', 'deleting', 'deleted'],
  remove: ['remove', 'removes', 'removing', 'removed'],
  move: ['move', 'moves', 'moving', 'moved'],
  rename: ['rename', 'renames', 'renaming', 'renamed'],
  overwrite: ['overwrite', 'overwrites', 'overwriting', 'overwritten'],
  append: ['append', 'appends', 'appending', 'appended'],
  edit: ['edit', 'edits', 'editing', 'edited'],
  modify: ['modify', 'modifies', 'modifying', 'modified'],
  copy: ['copy', 'copies', 'copying', 'copied'],
  truncate: ['truncate', 'truncates', 'truncating', 'truncated'],
  unlink: ['unlink', 'unlinks', 'unlinking', 'unlinked'],
};

/** Verbs that put data into a place (for "… to a file", "… to disk"). */
const STORE_VERBS: VerbForms = {
  write: WRITE_VERBS['write']!,
  save: WRITE_VERBS['save']!,
  append: WRITE_VERBS['append']!,
  store: ['store', 'stores', 'storing', 'stored'],
  dump: ['dump', 'dumps', 'dumping', 'dumped'],
  export: ['export', 'exports', 'exporting', 'exported'],
  persist: ['persist', 'persists', 'persisting', 'persisted'],
};

const WRITE_QUALIFIERS = [
  ...COMMON_QUALIFIERS,
  'local',
  'text',
  'binary',
  'temporary',
  'temp',
  'output',
  'config',
  'configuration',
  'to',
  'into',
  'in',
  'on',
  'content',
  'contents',
  'data',
  'it',
  'them',
  'nested',
  'empty',
  'and',
  'from',
  'line-based',
  'changes',
  'lines',
  'log',
  'source',
  'project',
  'workspace',
];

const FILE_OBJECT = '(?:files?|director(?:y|ies)|folders?|dirs?)\\b';

const WRITE_PATTERNS: readonly PhrasePattern[] = [
  // "Create a new file", "overwrite an existing file", "move or rename files and directories",
  // "make line-based edits to a text file".
  { re: new RegExp(`\\b(${formsOf(WRITE_VERBS)})\\s{1,3}${listed(WRITE_QUALIFIERS, 4)}${FILE_OBJECT}`, 'i'), verbGroup: 1 },
  // "Saves the screenshot to the given path", "writes the data to disk", "exports the report as
  // a CSV file": a storing verb, free words, then to/into/as a file, path or disk.
  {
    re: new RegExp(
      `\\b(${formsOf(STORE_VERBS)})${freeWords(5)}\\s{1,3}((?:to|into|in|on|as)\\s{1,3}(?:(?:a|an|the|given|specified|provided|local|new|output|target|its|your)[\\s-]{1,3}){0,3})(?:[A-Za-z0-9]{1,12}[\\s-]{1,3})?((?:files?|disk|director(?:y|ies)|folders?|paths?|filesystem|file\\s{1,3}system)\\b)`,
      'di',
    ),
    groups: [1, 2, 3],
    verbGroup: 1,
  },
  // "Path of the file to write", "the directory to create".
  {
    re: new RegExp(`\\b(?:files?|director(?:y|ies)|folders?|paths?)\\s{1,3}to\\s{1,3}(?:be\\s{1,3})?(${formsOf(WRITE_VERBS)})\\b`, 'i'),
    verbGroup: 1,
  },
];

/** Name words that write (`write_file`, `create_directory`, `file_delete`); `mkdir`, `rmdir` alone. */
const WRITE_NAME_VERBS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(WRITE_VERBS).flatMap(([base, forms]) => forms.map((form) => [form, base] as const)),
  ['rm', 'remove'],
  ['mv', 'move'],
  ['cp', 'copy'],
  ['touch', 'create'],
  ['download', 'download'],
  ['upsert', 'write'],
]);
const FILE_NAME_OBJECTS: ReadonlySet<string> = new Set(['file', 'files', 'dir', 'dirs', 'directory', 'directories', 'folder', 'folders', 'fs']);
const WRITE_NAME_WORDS: ReadonlyMap<string, string> = new Map([
  ['mkdir', 'create'],
  ['rmdir', 'remove'],
  ['writefile', 'write'],
]);

/**
 * writes_files in a name's words: `mkdir`, `rmdir`, `writefile`; a writing verb followed, within
 * two words, by file/dir/directory/folder/fs (`write_file`, `create_directory`, `edit_config_file`);
 * or file/fs immediately followed by one (`file_delete`, `fs.write`).
 */
function fileWriteNameWords(words: readonly string[]): { words: string; verb: string } | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const single = WRITE_NAME_WORDS.get(word);
    if (single !== undefined) return { words: word, verb: single };
    const verb = WRITE_NAME_VERBS.get(word);
    if (verb !== undefined) {
      for (let j = i + 1; j <= i + 3 && j < words.length; j++) {
        if (FILE_NAME_OBJECTS.has(words[j]!)) return { words: words.slice(i, j + 1).join(' '), verb };
      }
    }
    const next = words[i + 1];
    if (FILE_NAME_OBJECTS.has(word) && next !== undefined) {
      const after = WRITE_NAME_VERBS.get(next);
      if (after !== undefined) return { words: `${word} ${next}`, verb: after };
    }
  }
  return null;
}

/** Parameter name words that make it a path. */
const PATH_PARAMETER_WORDS: ReadonlySet<string> = new Set([
  'path',
  'paths',
  'file',
  'files',
  'filename',
  'filenames',
  'filepath',
  'filepaths',
  'dir',
  'directory',
  'folder',
  'destination',
  'dest',
  'outfile',
  'outdir',
]);

/** Words that say a path is written to, for a path parameter. */
const WRITE_WORDS = new RegExp(`\\b(${alternation([...WRITE_VERBS['write']!, ...WRITE_VERBS['save']!, ...WRITE_VERBS['overwrite']!])})\\b`, 'i');

// ---------------------------------------------------------------------------------------------
// Finding.

/**
 * Behaviour evidence in one piece of free text (a title, a description, a parameter's
 * description, a prompt's or resource's description): every behaviour's phrase patterns, the
 * first match of each.
 */
export function behaviourTextHits(text: string): BehaviourHit[] {
  return [
    ...phraseHits('executes_code', EXECUTE_PATTERNS, text),
    ...phraseHits('writes_files', WRITE_PATTERNS, text, { ...WRITE_VERBS, ...STORE_VERBS }),
    ...phraseHits('reads_environment', ENV_PATTERNS, text),
    ...phraseHits('fetches_urls', FETCH_PATTERNS, text),
  ];
}

/**
 * Behaviour evidence in a name or title, from its words (see nameWords): reads_environment and
 * writes_files. The evidence that a name runs commands is `shell_exec_name` (executeWordOf), not
 * repeated here. `text` is the name as given (the excerpt is taken from it).
 */
export function behaviourNameHits(text: string, words: readonly string[], where: 'name' | 'title'): BehaviourHit[] {
  const hits: BehaviourHit[] = [];
  const environment = environmentNameWords(words);
  if (environment !== null) {
    hits.push({ behaviour: 'reads_environment', text, index: 0, label: `the words "${environment}" in the ${where}` });
  }
  const write = fileWriteNameWords(words);
  if (write !== null) {
    hits.push({ behaviour: 'writes_files', text, index: 0, label: `the words "${write.words}" in the ${where}`, verb: write.verb });
  }
  return hits;
}

/**
 * The behaviour findings of an item (a tool; a prompt with its arguments as parameters): each
 * text gives at most one finding per behaviour (phraseHits), each name or title one per rule.
 *
 * - name and title: behaviourNameHits; title, description and each parameter's description:
 *   behaviourTextHits.
 * - combined rules, each used only for a behaviour nothing above found (they are weaker), and
 *   so for one parameter at most:
 *   - fetches_urls: a URL parameter — a name word url/uri/endpoint/href/webhook/website, or a
 *     description that starts by saying it is a URL — whose description says it is the URL of
 *     content ("URL of the file content to compress"), or with fetch/download/crawl/scrape or
 *     "HTTP request" in the parameter's, the title's or the description's text;
 *   - writes_files: a path parameter (path, file, filename, dir, directory, folder, destination…)
 *     with write/save/overwrite in those texts;
 *   - executes_code: a parameter carrying a command or code (isCommandParameter) of an item whose
 *     name has run/invoke/exec/execute/call — unless `nameExecutes` (the name already says so:
 *     that is `shell_exec_name`).
 *
 * `nameWords` splits names into words (classes.ts; passed in to keep this module free of it).
 */
export function behaviourFindings(item: BehaviourItem, nameWords: (name: string) => string[], nameExecutes: boolean): BehaviourFinding[] {
  const findings: BehaviourFinding[] = [];
  const nameList = nameWords(item.name);
  for (const hit of behaviourNameHits(item.name, nameList, 'name')) findings.push({ ...hit, location: 'name' });
  if (item.title !== null) {
    for (const hit of behaviourNameHits(item.title, nameWords(item.title), 'title')) findings.push({ ...hit, location: 'title' });
    for (const hit of behaviourTextHits(item.title)) findings.push({ ...hit, location: 'title' });
  }
  if (item.description !== null) {
    for (const hit of behaviourTextHits(item.description)) findings.push({ ...hit, location: 'description' });
  }
  for (const parameter of item.parameters) {
    if (parameter.description === null) continue;
    for (const hit of behaviourTextHits(parameter.description)) findings.push({ ...hit, location: 'parameter', parameter: parameter.name });
  }

  const found = new Set(findings.map((finding) => finding.behaviour));
  const itemTexts = [item.title, item.description].filter((text): text is string => text !== null);
  /** The first of `texts` that `re` matches, with the match. */
  const firstIn = (re: RegExp, texts: readonly (string | null)[]): { text: string; match: RegExpExecArray } | null => {
    for (const text of texts) {
      if (text === null) continue;
      const match = re.exec(text);
      if (match !== null) return { text, match };
    }
    return null;
  };
  let itemFetch: { text: string; match: RegExpExecArray } | null | undefined;
  let itemWrite: { text: string; match: RegExpExecArray } | null | undefined;
  const runNamed = !nameExecutes && nameList.some((word) => RUN_VERBS.has(word));

  for (const parameter of item.parameters) {
    const words = nameWords(parameter.name);
    const description = parameter.description;
    const at = (behaviour: Behaviour, text: string, index: number, label: string, verb?: string): void => {
      findings.push({ behaviour, text, index, label, ...(verb !== undefined ? { verb } : {}), location: 'parameter', parameter: parameter.name });
      found.add(behaviour);
    };
    if (
      !found.has('fetches_urls') &&
      ((description !== null && URL_DESCRIPTION_START.test(description)) || words.some((word) => URL_PARAMETER_WORDS.has(word)))
    ) {
      const content = description !== null ? CONTENT_URL.exec(description) : null;
      if (content !== null) {
        at('fetches_urls', description!, content.indices![1]![0], `a URL parameter and the words "${quoted(wordsOf(content, [1, 2]))}"`);
      } else {
        const hit =
          (description !== null ? firstIn(FETCH_WORDS, [description]) : null) ??
          (itemFetch === undefined ? (itemFetch = firstIn(FETCH_WORDS, itemTexts)) : itemFetch);
        if (hit !== null) at('fetches_urls', hit.text, hit.match.index, `a URL parameter and the words "${quoted(hit.match[0])}"`);
      }
    }
    if (!found.has('writes_files') && words.some((word) => PATH_PARAMETER_WORDS.has(word))) {
      const hit =
        (description !== null ? firstIn(WRITE_WORDS, [description]) : null) ??
        (itemWrite === undefined ? (itemWrite = firstIn(WRITE_WORDS, itemTexts)) : itemWrite);
      if (hit !== null)
        at('writes_files', hit.text, hit.match.index, `a path parameter and the words "${quoted(hit.match[0])}"`, baseOf(WRITE_VERBS, hit.match[1]!));
    }
    if (!found.has('executes_code') && runNamed && isCommandParameter(words)) {
      const verb = nameList.find((word) => RUN_VERBS.has(word))!;
      at('executes_code', item.name, 0, `a command or code parameter of a tool named with "${verb}"`);
    }
  }
  return findings;
}
