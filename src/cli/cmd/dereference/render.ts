/**
 * Plain-text (optionally coloured) report of a DID URL dereference, laid out for a width with the
 * shared layout (cmdutil/layout.ts): what the DID URL selected — a verification method, a service, the
 * DID document or service endpoint URLs — then the DID document metadata. The content comes from
 * a DID document someone else publishes: every string passes through `printable`.
 */
import type { DereferencingResult } from '../../../core/dereference/dereference.js';
import { printable } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, columns, phrase, words, type Style } from '../../cmdutil/layout.js';

/** What the DID URL selected, in words, from the content type and the object's own members. */
export function selectedKind(result: DereferencingResult): string {
  switch (result.dereferencingMetadata.contentType) {
    case 'application/did':
      return 'DID document';
    case 'text/uri-list':
      return 'service endpoint';
    case 'application/json': {
      const content = result.contentStream;
      const isService = typeof content === 'object' && content !== null && 'serviceEndpoint' in content;
      return isService ? 'service' : 'verification method';
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member's value on one line: strings as they are, anything else as compact JSON. */
function scalar(value: unknown): string {
  return printable(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

/** The members as `  name  value` fields, the names in one column. */
function members(out: Report, object: Record<string, unknown>): void {
  const names = Object.keys(object).map(printable);
  if (names.length === 0) {
    out.line({ text: '  (none)', tone: 'muted' });
    return;
  }
  const labelWidth = Math.max(...names.map(columns)) + 1;
  Object.values(object).forEach((value, i) => out.field(names[i]!, scalar(value), labelWidth));
}

export function dereferenceText(didUrl: string, result: DereferencingResult, style: Style, width: number = DEFAULT_WIDTH): string {
  const { contentType, retrieved } = result.dereferencingMetadata;
  const kind = selectedKind(result);
  const content = result.contentStream;
  const out = new Report(width);
  out.hang(
    '',
    [phrase(printable(didUrl), 'plain')].map((w) => ({ ...w, bold: true })),
  );
  out.hang('', [phrase(`${kind} (${contentType})`, 'muted'), phrase(`retrieved ${retrieved}`, 'muted', '  ')]);
  out.blank();

  if (contentType === 'text/uri-list' && typeof content === 'string') {
    const urls = content.split('\r\n');
    out.line({ text: urls.length > 1 ? 'Service endpoints' : 'Service endpoint', bold: true });
    for (const url of urls) out.line({ text: '  ' }, { text: printable(url), tone: 'accent' });
  } else if (contentType === 'application/did') {
    // The whole document as JSON: the form to read it in, and to copy from (never wrapped).
    out.line({ text: 'DID document', bold: true });
    for (const line of JSON.stringify(content, null, 2).split('\n')) out.line({ text: `  ${printable(line)}` });
  } else if (isObject(content)) {
    const id = typeof content['id'] === 'string' ? printable(content['id']) : null;
    out.hang([{ text: kind === 'service' ? 'Service' : 'Verification method', bold: true }, { text: '  ' }], id === null ? [] : [phrase(id, 'accent')]);
    members(out, Object.fromEntries(Object.entries(content).filter(([name]) => name !== 'id')));
  }

  out.blank().line({ text: 'Document metadata', bold: true });
  members(out, result.contentMetadata);
  if (result.contentMetadata['deactivated'] === true) {
    out.blank().hang('', words('The DID is deactivated: what it published is shown, but it is no longer in force.', 'bad'));
  }
  return out.text(style);
}
