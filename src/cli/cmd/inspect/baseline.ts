/**
 * `--baseline <file>` of `svc inspect-mcp` / `svc inspect-a2a`, and the file `svc mcp approve` /
 * `svc a2a approve` write (docs/agents.md#approved-baselines): reading it (anything wrong with it is
 * an option value svc cannot use: one line naming the file, exit 2), choosing the entry a target is
 * compared with, and where a finding sits in it (the SARIF locate hook). Loaded only with --baseline.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASELINE_MAX_BYTES } from '../../../core/baseline.js';
import {
  a2aBaselinePointer,
  a2aDifferencePointer,
  agentFor,
  compareA2aBaseline,
  emptyA2aBaseline,
  readA2aBaseline,
  type A2aBaseline,
  type A2aBaselineAgent,
} from '../../../core/a2a/baseline.js';
import {
  baselinePointer,
  emptyMcpBaseline,
  entryForTarget,
  readMcpBaseline,
  type BaselineComparison,
  type BaselineLines,
  type McpBaseline,
} from '../../../core/mcp/baseline.js';
import type { A2aInspection } from '../../../core/a2a/types.js';
import type { Kind } from '../../../core/mcp/drift.js';
import { printable } from '../../../present/text.js';
import { usageError } from '../../cmdutil/errors.js';
import { optionProblem } from '../../cmdutil/source.js';
import type { FindingSubject, SarifPhysicalLocation } from './sarif.js';

/** A baseline file as read: its bytes (null when it does not exist yet: approve only), the parsed baseline and its lines. */
export interface LoadedBaseline<B> {
  /** The file as given. */
  file: string;
  /** As reports name it. */
  shown: string;
  /** The file's bytes as text; null when it does not exist (approve writes it). */
  text: string | null;
  baseline: B;
  lines: BaselineLines;
}

/** The bytes of a baseline file; null when it does not exist and `missingOk`. Anything else unreadable is a usage error. */
async function bytesOf(file: string, command: 'mcp' | 'a2a', missingOk: boolean): Promise<Buffer | null> {
  if (file === '-' || file === '')
    throw usageError('--baseline takes a file (written by svc mcp approve or svc a2a approve, and committed), not standard input');
  const shown = printable(file);
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && missingOk) return null;
    if (code === 'ENOENT')
      throw usageError(`--baseline ${shown}: no such file`, `svc ${command} approve <target> --baseline ${shown} writes it after you review the inventory`);
    throw usageError(`--baseline ${shown}: ${code ?? 'cannot be read'}`);
  }
  if (!info.isFile()) throw usageError(`--baseline ${shown} is not a file`);
  const size = info.size;
  if (size > BASELINE_MAX_BYTES) throw usageError(`--baseline ${shown} is larger than ${BASELINE_MAX_BYTES} bytes (16 MiB)`);
  return readFile(file);
}

/**
 * Reads an MCP baseline (`missingOk`: a file that does not exist is an empty baseline, for
 * approve). A file that cannot be read is a usage error; one svc cannot use, a problem about an
 * option's value (INVALID_OPTIONS, exit 2): call it inside the command's work, so that --json
 * prints that problem.
 */
export async function loadMcpBaseline(file: string, missingOk = false): Promise<LoadedBaseline<McpBaseline>> {
  const bytes = await bytesOf(file, 'mcp', missingOk);
  const shown = printable(file);
  if (bytes === null) {
    return { file, shown, text: null, baseline: emptyMcpBaseline(), lines: new Map() };
  }
  try {
    const { baseline, lines } = readMcpBaseline(bytes, `The baseline ${shown}`);
    return { file, shown, text: bytes.toString('utf8').replace(/\r\n/g, '\n'), baseline, lines };
  } catch (err) {
    throw optionProblem(err);
  }
}

export async function loadA2aBaseline(file: string, missingOk = false): Promise<LoadedBaseline<A2aBaseline>> {
  const bytes = await bytesOf(file, 'a2a', missingOk);
  const shown = printable(file);
  if (bytes === null) {
    return { file, shown, text: null, baseline: emptyA2aBaseline(), lines: new Map() };
  }
  try {
    const { baseline, lines } = readA2aBaseline(bytes, `The baseline ${shown}`);
    return { file, shown, text: bytes.toString('utf8').replace(/\r\n/g, '\n'), baseline, lines };
  } catch (err) {
    throw optionProblem(err);
  }
}

/** `The baseline <file>`: how the core names it in refusals. */
export const baselineWhere = (loaded: LoadedBaseline<unknown>): string => `The baseline ${loaded.shown}`;

/**
 * Writes a baseline: to a new file beside it, then renamed over it, so that a reader never sees
 * half a file. Mode 0644: a baseline is meant to be committed and read by everyone.
 */
export async function writeBaseline(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await writeFile(temporary, text, { mode: 0o644, flag: 'wx' });
    await rename(temporary, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`--baseline ${printable(file)} cannot be written: ${code === 'ENOENT' ? 'its directory does not exist' : (code ?? 'write failed')}`);
  }
}

/** The artifact a SARIF location names: the path as given when relative (code scanning reads it from the repository root), else a file: URL. */
function artifact(file: string): { uri: string } {
  return { uri: path.isAbsolute(file) ? pathToFileURL(file).href : file.split(path.sep).join('/') };
}

function at(file: string, line: number | undefined): SarifPhysicalLocation | undefined {
  return line === undefined ? undefined : { artifactLocation: artifact(file), region: { startLine: line } };
}

/**
 * The SARIF locate hook of an MCP inspection compared with `name`'s entry: an item's line when
 * the baseline holds it, else the line of its kind in the entry (an added item), the entry's own
 * line for the server and its checks.
 */
export function mcpLocate(loaded: LoadedBaseline<McpBaseline>, name: string): (subject: FindingSubject) => SarifPhysicalLocation | undefined {
  const lines = loaded.lines;
  return (subject) => {
    if (subject.kind === 'tools' || subject.kind === 'prompts' || subject.kind === 'resources' || subject.kind === 'resourceTemplates') {
      const kind: Kind = subject.kind;
      return at(loaded.file, lines.get(baselinePointer(name, kind, subject.key)) ?? lines.get(baselinePointer(name, kind)) ?? lines.get(baselinePointer(name)));
    }
    if (subject.kind === 'instructions') return at(loaded.file, lines.get(`${baselinePointer(name)}/instructions`) ?? lines.get(baselinePointer(name)));
    return at(loaded.file, lines.get(baselinePointer(name)));
  };
}

/** The SARIF locate hook of an A2A card compared with `name`'s entry. */
export function a2aLocate(
  loaded: LoadedBaseline<A2aBaseline>,
  name: string,
  entry: A2aBaselineAgent,
): (subject: FindingSubject) => SarifPhysicalLocation | undefined {
  const lines = loaded.lines;
  return (subject) => {
    if (subject.kind === 'skills' || subject.kind === 'interfaces' || subject.kind === 'signingKeys') {
      return at(loaded.file, lines.get(a2aDifferencePointer(name, entry, subject.kind, subject.key)) ?? lines.get(a2aBaselinePointer(name)));
    }
    return at(loaded.file, lines.get(a2aBaselinePointer(name)));
  };
}

/**
 * The comparison of a single target (an endpoint, a stdio command line, or null for a saved
 * listing that names none) with its entry; a baseline that has none for it is an option value svc
 * cannot use (exit 2).
 */
export function mcpComparison(loaded: LoadedBaseline<McpBaseline>, target: string | null): BaselineComparison {
  try {
    const { name, entry } = entryForTarget(loaded.baseline, target, baselineWhere(loaded));
    return { file: loaded.shown, name, entry };
  } catch (err) {
    throw optionProblem(err);
  }
}

/** A card inspection compared with its entry in an A2A baseline (chosen by the card's URL). */
export function withA2aBaseline(
  loaded: LoadedBaseline<A2aBaseline>,
  inspection: A2aInspection,
): { inspection: A2aInspection; locate: (subject: FindingSubject) => SarifPhysicalLocation | undefined } {
  let chosen: { name: string; entry: A2aBaselineAgent };
  try {
    chosen = agentFor(loaded.baseline, inspection.cardUrl, baselineWhere(loaded));
  } catch (err) {
    throw optionProblem(err);
  }
  return {
    inspection: compareA2aBaseline(inspection, { file: loaded.shown, ...chosen }),
    locate: a2aLocate(loaded, chosen.name, chosen.entry),
  };
}
