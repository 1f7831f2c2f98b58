import { describe, it, expect } from 'vitest';
import { markStyle, section } from '../support/text.js';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { plainStyle, wrapWords } from '../../src/cli/cmdutil/layout.js';
import { buildDossierView } from '../../src/present/dossier.js';
import { displayKeyId, printable } from '../../src/present/text.js';
import { errorText, failingStages, type ProblemTraceStage } from '../../src/cli/cmdutil/errors.js';
import { ProblemError } from '../../src/core/problems.js';
import { buildGraph } from '../../src/core/resolve/graph.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';

/** BLS12-381 G2 key (did:key spec example): a key svc does not validate. */
const BLS_DID =
  'did:key:zUC7EK3ZakmukHhuncwkbySmomv3FmrkmS36E4Ks5rsb6VQSRpoCrx6Hb8e2Nk6UvJFSdyw9NK1scFXJp21gNNYFjVWNgaqyGnkyhtagagCpQb5B7tagJu3HDbjQ8h5ypoHjwBb';

async function resolveFresh(did: string): Promise<EnrichedResolution> {
  return resolve(did, createRuntime({}));
}

const ed = await resolveFresh(ED25519_DID);
const jwk = await resolveFresh(OFF_CURVE_DID);
const bls = await resolveFresh(BLS_DID);

/** Wrapped text joined back into one line, to compare with the unwrapped source. */
function unwrap(text: string): string {
  return text.replace(/\s+/g, ' ');
}

describe('dossierText: Ed25519 did:key', () => {
  const result = ed;
  const text = dossierText(result, plainStyle);

  it('starts with the DID, the method and the observation time', () => {
    const [first, second] = text.split('\n');
    expect(first).toBe(ED25519_DID);
    expect(second).toContain('did:key');
    expect(second).toContain(result.observedAt);
    expect(second).not.toContain('(cached)');
  });

  it('shows the outcome and the headline', () => {
    expect(text).toContain('Verdict  RESOLVED\n');
    expect(unwrap(text)).toContain(result.verdict.headline);
  });

  it('groups the dimensions under the plain-language classes, in order, omitting empty ones', () => {
    const confirmed = text.indexOf('\nConfirmed\n');
    const notConfirmed = text.indexOf('\nNot confirmed\n');
    expect(confirmed).toBeGreaterThan(0);
    expect(notConfirmed).toBeGreaterThan(confirmed);
    expect(text).not.toContain('Needs attention');

    const labels = (title: string) => section(text, title).filter((l) => /^ {2}\S/.test(l));
    expect(labels('Confirmed')).toEqual(['  ✔ Document integrity  SELF_CERTIFYING', '  ✔ Key material  ESTABLISHED']);
    expect(labels('Not confirmed')).toEqual([
      '  · Update authority  NOT_APPLICABLE',
      '  · Origin binding  NOT_APPLICABLE',
      '  · Transport security  NOT_APPLICABLE',
      '  · Verifiable history  NOT_APPLICABLE',
      '  · Real-world identity  NOT_ESTABLISHED',
    ]);
  });

  it('puts each statement, indented, under its dimension', () => {
    const confirmed = section(text, 'Confirmed');
    expect(confirmed[1]).toMatch(/^ {6}The document is expanded/);
    for (const d of result.dimensions) expect(unwrap(text)).toContain(d.statement);
  });

  it('lists both keys by fragment, valid, with curve, relationships and thumbprint', () => {
    const keys = section(text, 'Keys').join('\n');
    const [ed, x] = result.evidence.keys;
    expect(keys).toContain('  #z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK\n');
    expect(keys).toContain('  #z6LSj72tK8brWgZja8NLRwPigth2T9QRiG1uH9oKZuKjdh9p');
    expect(keys.match(/status +VALID_KEY/g)).toHaveLength(2);
    expect(keys).toMatch(/curve +Ed25519/);
    expect(keys).toMatch(/curve +X25519/);
    expect(keys).toContain(ed!.jwkThumbprint!);
    expect(keys).toContain(x!.jwkThumbprint!);
    expect(unwrap(keys)).toContain('relationships authentication, assertionMethod, capabilityInvocation, capabilityDelegation');
    expect(keys).toMatch(/relationships +keyAgreement/);
    expect(keys).not.toContain('detail');
  });

  it('lists every limitation as a bullet', () => {
    const limitations = section(text, 'Limitations');
    expect(limitations.filter((l) => l.startsWith('  • '))).toHaveLength(result.limitations.length);
    for (const l of result.limitations) expect(unwrap(limitations.join('\n'))).toContain(l);
  });

  it('fits 80 columns', () => {
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('has no document warnings section when there are none', () => {
    expect(text).not.toContain('Document warnings');
  });

  it('says (cached) for a cached result', async () => {
    const runtime = createRuntime({});
    await resolve(ED25519_DID, runtime);
    const cached = await resolve(ED25519_DID, runtime);
    expect(cached.cached).toBe(true);
    expect(dossierText(cached, plainStyle).split('\n')[1]).toContain('(cached)');
  });

  it('contains no ANSI escapes with plainStyle', () => {
    expect(text).not.toContain('\u001b');
  });
});

describe('dossierText: did:jwk with an off-curve key', () => {
  const result = jwk;
  const text = dossierText(result, plainStyle);

  it('keeps the long DID whole on its own line', () => {
    expect(text.split('\n')[0]).toBe(OFF_CURVE_DID);
  });

  it('resolves with warnings and says why', () => {
    expect(text).toContain('Verdict  RESOLVED_WITH_WARNINGS\n');
    expect(unwrap(text)).toContain(result.verdict.headline);
  });

  it('puts key material under "Needs attention", between the other groups', () => {
    expect(section(text, 'Needs attention')).toEqual(['  ! Key material  FAILED', '      1 of 1 key is invalid: the point is not on the P-256 curve.']);
    const order = ['Confirmed', 'Needs attention', 'Not confirmed'].map((t) => text.indexOf(`\n${t}\n`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(section(text, 'Confirmed').join('\n')).not.toContain('Key material');
  });

  it('lists the key as INVALID_KEY with its detail', () => {
    const keys = section(text, 'Keys').join('\n');
    expect(keys).toContain('  #0\n');
    expect(keys).toMatch(/status +INVALID_KEY/);
    expect(keys).toMatch(/curve +P-256/);
    expect(keys).toMatch(/detail +the point is not on the P-256 curve/);
    expect(keys).toMatch(/jwk thumbprint +\(none\)/);
  });

  it('lists the did:jwk limitation', () => {
    expect(unwrap(section(text, 'Limitations').join('\n'))).toContain(
      'The same key can be written as many different did:jwk identifiers; compare identifiers, not keys.',
    );
  });
});

describe('dossierText colours', () => {
  it('colours a clean outcome, confirmed dimensions and valid keys green', () => {
    const text = dossierText(ed, markStyle);
    expect(text).toContain('[b][g]RESOLVED[/g][/b]');
    expect(text).toContain('[g]✔[/g]');
    expect(text).toContain('[g]ESTABLISHED[/g]');
    expect(text.match(/\[g\]VALID_KEY\[\/g\]/g)).toHaveLength(2);
  });

  it('dims what is not confirmed and the limitations', () => {
    const text = dossierText(ed, markStyle);
    expect(text).toContain('[d]·[/d]');
    expect(text).toContain('[d]NOT_APPLICABLE[/d]');
    expect(text).toContain(`[d]${ed.limitations[0]!.split(' ').slice(0, 5).join(' ')}`);
  });

  it('colours warnings yellow and failures red', () => {
    const text = dossierText(jwk, markStyle);
    expect(text).toContain('[b][y]RESOLVED_WITH_WARNINGS[/y][/b]');
    expect(text).toContain('[r]![/r]');
    expect(text).toContain('[r]FAILED[/r]');
    expect(text).toContain('[r]INVALID_KEY[/r]');
  });

  it('colours an unsupported key and an indeterminate dimension yellow', () => {
    const text = dossierText(bls, markStyle);
    expect(text).toContain('[y]UNSUPPORTED_KEY[/y]');
    expect(text).toContain('[y]![/y]');
    expect(text).toContain('[y]INDETERMINATE[/y]');
  });

  it('shows document warnings in yellow', () => {
    const warned: EnrichedResolution = {
      ...ed,
      evidence: { ...ed.evidence, document: { ...ed.evidence.document, warnings: ['The first @context is not the DID Core context.'] } },
    };
    const text = dossierText(warned, markStyle);
    expect(text).toContain('[b]Document warnings[/b]');
    expect(text).toContain('[y]The first @context is not the DID Core context.[/y]');
    expect(section(dossierText(warned, plainStyle), 'Document warnings')).toEqual(['  ! The first @context is not the DID Core context.']);
  });

  it('marks DEACTIVATED red', () => {
    const gone: EnrichedResolution = { ...ed, verdict: { ...ed.verdict, outcome: 'DEACTIVATED' } };
    expect(dossierText(gone, markStyle)).toContain('[r]DEACTIVATED[/r]');
  });
});

describe('view model', () => {
  it('shows a key id whole when it does not belong to the DID', () => {
    expect(displayKeyId(`${ED25519_DID}#k1`, ED25519_DID)).toBe('#k1');
    expect(displayKeyId('did:example:other#k1', ED25519_DID)).toBe('did:example:other#k1');
    // A DID that merely starts with this one is another DID.
    expect(displayKeyId(`${ED25519_DID}x#k1`, ED25519_DID)).toBe(`${ED25519_DID}x#k1`);
  });

  it('lists every dimension exactly once', () => {
    const ids = buildDossierView(ed).groups.flatMap((g) => g.rows.map((r) => r.id));
    expect([...ids].sort()).toEqual(ed.dimensions.map((d) => d.id).sort());
  });

  it('shows control characters and bidi overrides from the document as escapes', () => {
    expect(printable('a\u001b[31mb\u202ec\nd')).toBe('a\\x1b[31mb\\u202ec d');
    // Invisible format characters would make one name look like another.
    expect(printable('get\u200bweather\u2060\ufeff\u{e0061}\u2028x')).toBe('get\\u200bweather\\u2060\\ufeff\\u{e0061}\\u2028x');
    expect(printable('café ✓ 名前')).toBe('café ✓ 名前');
    const hostile: EnrichedResolution = {
      ...ed,
      evidence: { ...ed.evidence, document: { ...ed.evidence.document, warnings: ['The method \u001b[2Jx is odd.'] } },
    };
    const text = dossierText(hostile, plainStyle);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('The method \\x1b[2Jx is odd.');
    expect(errorText({ code: 'X', detail: 'id \u001b]0;pwned\u0007', hint: 'h' }, plainStyle)).toBe('svc: X: id \\x1b]0;pwned\\x07\n  hint: h\n');
  });

  it('never cuts a word longer than the line', () => {
    const long = 'x'.repeat(100);
    expect(wrapWords(`a ${long} b`, 20)).toEqual(['a', long, 'b']);
  });
});

/** The error block as emitProblem builds it from a problem object. */
function problemBlock(problem: { code: string; title: string; detail: string; trace?: ProblemTraceStage[] }, style = plainStyle): string {
  return errorText(
    { code: problem.code, detail: problem.detail || problem.title, stages: failingStages(problem.trace), hint: "see 'svc resolve --help'" },
    style,
  );
}

describe('the error block of a problem', () => {
  it('prints the code, the detail and the failing stage of a real problem', async () => {
    const err = await resolve('did:foo:bar', createRuntime({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    const problem = (err as ProblemError).toProblem();
    const text = problemBlock(problem);
    expect(text).toContain('  failed at syntax.parse (Parse the DID)');
    // The stage's detail repeats the problem's; it is printed once.
    expect(text.split('The DID method "foo"')).toHaveLength(2);
    expect(text).not.toContain('\u001b');
    // The reason is one line, whole, for `head -1` and log greps; the hint ends the block.
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(`svc: METHOD_NOT_SUPPORTED: ${problem.detail}`);
    expect(lines.at(-1)).toBe("  hint: see 'svc resolve --help'");
  });

  it('shows only failing stages, with their own detail when it differs', () => {
    const text = problemBlock({
      code: 'INVALID_DID_DOCUMENT',
      title: 'Invalid DID document',
      detail: 'The document could not be read.',
      trace: [
        { stage: 'syntax.parse', status: 'PASS', detail: 'did:key' },
        { stage: 'document.inspect', status: 'FAIL', detail: 'id mismatch' },
      ],
    });
    expect(text).toBe(
      "svc: INVALID_DID_DOCUMENT: The document could not be read.\n  failed at document.inspect\n    id mismatch\n  hint: see 'svc resolve --help'\n",
    );
  });

  it('without a trace: the reason and the hint, the code in red', () => {
    const problem = { code: 'INVALID_DID', title: 'Invalid DID', detail: 'Not a DID.' };
    expect(problemBlock(problem)).toBe("svc: INVALID_DID: Not a DID.\n  hint: see 'svc resolve --help'\n");
    expect(problemBlock(problem, markStyle)).toBe("svc: [b][r]INVALID_DID[/r][/b]: Not a DID.\n  [d]hint:[/d] see 'svc resolve --help'\n");
  });
});

/** A line longer than the width may only be one unbroken token (a DID, a hash). */
function expectFitsWidth(text: string, width: number): void {
  for (const line of text.split('\n')) {
    if ([...line].length > width) expect(line.trim(), `over ${width} columns: ${line}`).not.toMatch(/\s/);
  }
}

describe('dossierText: any width', () => {
  for (const width of [40, 60, 100]) {
    it(`fits ${width} columns, each DID whole on its own first line`, () => {
      for (const result of [ed, jwk, bls]) {
        const text = dossierText(result, plainStyle, width, { verbose: true });
        expectFitsWidth(text, width);
        expect(text.split('\n')[0]).toBe(result.did);
        // Every statement and limitation is all there, only wrapped.
        for (const d of result.dimensions) expect(unwrap(text)).toContain(d.statement);
        for (const l of result.limitations) expect(unwrap(text)).toContain(l);
      }
    });
  }

  it('wraps to the width it is given: more lines at 60 than at 100', () => {
    expect(dossierText(ed, plainStyle, 60).split('\n').length).toBeGreaterThan(dossierText(ed, plainStyle, 100).split('\n').length);
    expect(dossierText(ed, plainStyle)).toBe(dossierText(ed, plainStyle, 80));
  });
});

describe('dossierText: services, the evidence graph and the trace', () => {
  const hash = ed.evidence.document.jcsSha256.slice(0, 12);

  it('shows the evidence graph grouped by node, a key’s relationships on one line, states coloured', () => {
    const text = dossierText(ed, plainStyle, 100);
    expect(section(text, 'Evidence graph')).toEqual([
      '  this DID',
      `    —expandsTo→ DID document (sha256 ${hash}…)  VERIFIED`,
      '    —authentication, assertionMethod, capabilityInvocation, capabilityDelegation→ #z6MkhaXg…2doK',
      '      DECLARED',
      '    —keyAgreement→ #z6LSj72t…dh9p  DECLARED',
      `  DID document (sha256 ${hash}…)`,
      '    —publishes→ #z6MkhaXg…2doK  VERIFIED',
      '    —publishes→ #z6LSj72t…dh9p  VERIFIED',
    ]);
    const coloured = section(dossierText(ed, markStyle, 100), '[b]Evidence graph[/b]').join('\n');
    expect(coloured).toContain('[g]VERIFIED[/g]');
    expect(coloured).toContain('[d]DECLARED[/d]');
    // An invalid key's edge is red.
    expect(section(dossierText(jwk, markStyle, 100), '[b]Evidence graph[/b]').join('\n')).toMatch(/—publishes→ #0 {2}\[r\]FAILED\[\/r\]/);
  });

  it('places the graph after the keys and before the limitations, and says nothing of services a did:key has not', () => {
    const text = dossierText(ed, plainStyle);
    const at = (title: string) => text.indexOf(`\n${title}\n`);
    expect(at('Evidence graph')).toBeGreaterThan(at('Keys'));
    expect(at('Evidence graph')).toBeLessThan(at('Limitations'));
    expect(text).not.toContain('Services');
    expect(text).not.toContain('\nTrace\n');
  });

  it('lists services with type and endpoint, escaping what the document says, and links them in the graph', () => {
    const services = [
      { id: `${ED25519_DID}#linked-domain`, type: 'LinkedDomains', serviceEndpoint: 'https://example.com/' },
      { id: 'did:example:other#hub', type: ['DIDCommMessaging', 'Hub'], serviceEndpoint: { uri: 'https://hub.example/\u001b[2J', accept: ['didcomm/v2'] } },
      { id: `${ED25519_DID}#mirrors`, type: null, serviceEndpoint: ['https://a.example/', 'https://b.example/'] },
    ];
    const evidence = { ...ed.evidence, services };
    const result: EnrichedResolution = { ...ed, evidence, graph: buildGraph(ed.did, evidence) };
    const text = dossierText(result, plainStyle, 100);
    expect(section(text, 'Services')).toEqual([
      '  #linked-domain',
      '      type      LinkedDomains',
      '      endpoint  https://example.com/',
      '  did:example:other#hub',
      '      type      DIDCommMessaging, Hub',
      // A map as JSON, whose escapes already keep the terminal safe.
      '      endpoint  {"uri":"https://hub.example/\\u001b[2J","accept":["didcomm/v2"]}',
      '  #mirrors',
      '      type      (none)',
      '      endpoint  https://a.example/, https://b.example/',
    ]);
    expect(text.indexOf('\nServices\n')).toBeGreaterThan(text.indexOf('\nKeys\n'));
    expect(text).not.toContain('\u001b');
    const graph = section(text, 'Evidence graph');
    expect(graph).toContain('    —service→ #linked-domain  DECLARED');
    expect(graph).toContain('    —service→ did:example:other#hub  DECLARED');
  });

  it('shows every stage with its mark and duration only when asked (--verbose)', () => {
    const text = dossierText(ed, plainStyle, 100, { verbose: true });
    const trace = section(text, 'Trace').filter((line) => /^ {2}\S/.test(line));
    expect(trace).toHaveLength(ed.trace.length);
    ed.trace.forEach((stage, i) => {
      expect(trace[i]).toMatch(new RegExp(`^  ✓ ${stage.stage.replace('.', '\\.')} +\\d+(\\.\\d)? ms  ${stage.label}: `));
    });
    expect(text.indexOf('\nTrace\n')).toBeLessThan(text.indexOf('\nLimitations\n'));
    const failed: EnrichedResolution = { ...ed, trace: [{ ...ed.trace[0]!, status: 'FAIL', detail: 'broken \u001b[31m' }] };
    const coloured = section(dossierText(failed, markStyle, 100, { verbose: true }), '[b]Trace[/b]');
    expect(coloured[0]).toMatch(/^ {2}\[r\]✗\[\/r\] syntax\.parse/);
    expect(coloured[0]).toContain('broken \\x1b[31m');
  });
});
