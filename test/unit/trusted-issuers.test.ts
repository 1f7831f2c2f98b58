/**
 * Trusted issuers (src/core/policy/trusted-issuers.ts): which entries are accepted and why the
 * others are refused, how each form matches, the three statuses, and hostile look-alikes of a
 * domain — by hand and with fast-check against a definition written here (labels compared as
 * lists, paths as lists of segments), never against a string prefix.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkTrustedIssuer,
  MAX_TRUSTED_ISSUERS,
  parseTrustedIssuer,
  parseTrustedIssuers,
  trustedIssuersProblem,
} from '../../src/core/policy/trusted-issuers.js';
import { ProblemError } from '../../src/core/problems.js';

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER_KEY = 'did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG';
const SCID = 'QmYqGRtCmKMVwQ8kJj7G5qBbVJDq1ZsFvP3hW9eRkLmNoP';

function reason(entry: unknown): string {
  const parsed = parseTrustedIssuer(entry);
  if (!('reason' in parsed)) throw new Error(`${String(entry)} was accepted`);
  return parsed.reason;
}

const status = (issuer: string | null, trusted: readonly string[]) => checkTrustedIssuer(issuer, trusted).status;

describe('entries', () => {
  it('accepts DIDs of any method and the two domain forms of did:web and did:webvh', () => {
    for (const entry of [
      DID_KEY,
      'did:web:example.com',
      'did:web:example.com:users:alice',
      'did:web:localhost%3A8443',
      `did:webvh:${SCID}:example.com`,
      'did:web:*.example.com',
      'did:web:*.example.com%3A8443',
      'did:web:example.com:*',
      'did:web:example.com:users:*',
      'did:web:localhost%3A8443:*',
      'did:webvh:*.example.com',
      'did:webvh:example.com:*',
      'did:example:123',
    ]) {
      expect(parseTrustedIssuer(entry), entry).toHaveProperty('entry');
    }
  });

  it('refuses a wildcard anywhere else, in another method, over a single label, and anything that is not a DID, saying why', () => {
    const placed = 'a wildcard is allowed only as "*." before the host (did:web:*.example.com) or as a last ":*" segment (did:web:example.com:*)';
    expect(reason('did:web:*example.com')).toBe(placed);
    expect(reason('did:web:a.*.example.com')).toBe(placed);
    expect(reason('did:web:example.*')).toBe(placed);
    expect(reason('did:web:example.com:*:x')).toBe(placed);
    expect(reason('did:web:example.com%3A*')).toBe(placed);
    expect(reason('did:web:*.*.example.com')).toBe(placed);
    expect(reason('did:web:*.example.com:*')).toBe('a "*." form matches every path under its hosts and takes no path (did:web:*.example.com)');
    expect(reason('did:web:*.example.com:users')).toContain('takes no path');
    expect(reason('did:key:*')).toBe('a wildcard is allowed only in did:web and did:webvh domain forms; list a did:key exactly');
    expect(reason('did:web:*')).toBe('it would trust every did:web; name a domain (did:web:*.example.com or did:web:example.com:*)');
    expect(reason('did:web:*.com')).toContain('"*.com" would trust every domain under a top-level name');
    expect(reason('did:web:*.localhost%3A8443')).toContain('"*.localhost" would trust every domain');
    expect(reason(`did:webvh:${SCID}:example.com:*`)).toContain('a did:webvh domain form names no SCID');
    expect(reason('*')).toMatch(/^it is not a DID; an entry is a DID, or a did:web or did:webvh domain form/);
    expect(reason('https://issuer.example')).toMatch(/^it is not a DID/);
    expect(reason('')).toBe('it is empty');
    expect(reason(42)).toBe('it is not a string');
    expect(reason('did:web:example.com#key-1')).toBe("it is a DID URL (it has a path, query or fragment); list the issuer's DID, did:web:example.com");
    expect(reason('did:web:127.0.0.1')).toBe('not a valid did:web: the host 127.0.0.1 is an IP address; did:web needs a domain name');
    expect(reason('did:web:*.127.0.0.1')).toContain('IP address');
    expect(reason('did:webvh:tooshort:example.com')).toContain('not a valid did:webvh');
    expect(reason('did:Web:example.com')).toMatch(/^not a valid DID: /);
    expect(reason(`did:key:${'z'.repeat(9000)}`)).toBe('it is longer than 8192 characters');
  });

  it('a list names the first bad entry, and is bounded', () => {
    expect(trustedIssuersProblem([DID_KEY, 'did:web:*example.com'])).toBe(
      'trusted issuer 2 ("did:web:*example.com") is refused: a wildcard is allowed only as "*." before the host (did:web:*.example.com) or as a last ":*" segment (did:web:example.com:*)',
    );
    expect(trustedIssuersProblem([DID_KEY, 7])).toBe('trusted issuer 2 is refused: it is not a string');
    expect(trustedIssuersProblem('did:web:example.com')).toBe('trusted issuers must be an array of strings');
    expect(trustedIssuersProblem(Array(MAX_TRUSTED_ISSUERS).fill(DID_KEY))).toBeNull();
    expect(trustedIssuersProblem(Array(MAX_TRUSTED_ISSUERS + 1).fill(DID_KEY))).toBe('at most 100 trusted issuers may be given, not 101');
    expect(trustedIssuersProblem([])).toBeNull();
  });

  it('checkTrustedIssuer refuses a bad list (INVALID_OPTIONS, one sentence) instead of skipping the entry', () => {
    let caught: unknown;
    try {
      checkTrustedIssuer(DID_KEY, [DID_KEY, 'did:key:*']);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProblemError);
    expect((caught as ProblemError).code).toBe('INVALID_OPTIONS');
    expect((caught as ProblemError).detail).toBe(
      'Trusted issuer 2 ("did:key:*") is refused: a wildcard is allowed only in did:web and did:webvh domain forms; list a did:key exactly.',
    );
    expect(() => parseTrustedIssuers(['did:web:*.com'])).toThrow(ProblemError);
  });
});

describe('deciding', () => {
  it('listed → PASS naming the entry; not listed → FAIL naming the issuer; an empty list → INDETERMINATE', () => {
    expect(checkTrustedIssuer(DID_KEY, [OTHER_KEY, DID_KEY])).toEqual({
      status: 'PASS',
      issuer: DID_KEY,
      matched: DID_KEY,
      trustedIssuers: [OTHER_KEY, DID_KEY],
      detail: `The issuer ${DID_KEY} is trusted: it is listed.`,
    });
    expect(checkTrustedIssuer(DID_KEY, [OTHER_KEY])).toEqual({
      status: 'FAIL',
      issuer: DID_KEY,
      matched: null,
      trustedIssuers: [OTHER_KEY],
      detail: `The issuer ${DID_KEY} is not among the trusted issuers (1 entry: ${OTHER_KEY}).`,
    });
    expect(checkTrustedIssuer(DID_KEY, [])).toEqual({
      status: 'INDETERMINATE',
      issuer: DID_KEY,
      matched: null,
      trustedIssuers: [],
      detail: 'The list of trusted issuers is empty: it trusts no one, so whether the issuer is trusted is not decided.',
    });
  });

  it('no issuer → INDETERMINATE; an issuer that is not a DID → FAIL; a DID URL is compared as its DID', () => {
    expect(checkTrustedIssuer(null, [DID_KEY])).toMatchObject({ status: 'INDETERMINATE', issuer: null, matched: null });
    const https = checkTrustedIssuer('https://issuer.example', ['did:web:issuer.example']);
    expect(https).toMatchObject({ status: 'FAIL', matched: null });
    expect(https.detail).toBe('The issuer https://issuer.example is not a DID, so it is none of the trusted issuers (1 entry: did:web:issuer.example).');
    const withFragment = checkTrustedIssuer(`${DID_KEY}#key-1`, [DID_KEY]);
    expect(withFragment).toMatchObject({ status: 'PASS', matched: DID_KEY, issuer: `${DID_KEY}#key-1` });
    expect(withFragment.detail).toContain(`(compared as its DID ${DID_KEY})`);
  });

  it('the first matching entry in list order is named; a long list is abbreviated in the detail', () => {
    const trust = checkTrustedIssuer('did:web:a.example.com', ['did:web:other.example', 'did:web:*.example.com', 'did:web:a.example.com']);
    expect(trust).toMatchObject({ status: 'PASS', matched: 'did:web:*.example.com' });
    expect(trust.detail).toBe('The issuer did:web:a.example.com is trusted: it matches the entry did:web:*.example.com.');
    const many = ['did:web:a.example', 'did:web:b.example', 'did:web:c.example', 'did:web:d.example'];
    expect(checkTrustedIssuer(DID_KEY, many).detail).toBe(
      `The issuer ${DID_KEY} is not among the trusted issuers (4 entries: did:web:a.example, did:web:b.example, did:web:c.example, …).`,
    );
  });

  it('exact did:web and did:webvh entries compare where the DID is fetched from; other methods compare the string', () => {
    expect(status('did:web:Example.COM', ['did:web:example.com'])).toBe('PASS');
    expect(status('did:web:example.com%3A443', ['did:web:example.com'])).toBe('PASS');
    expect(status('did:web:example.com:%75sers', ['did:web:example.com:users'])).toBe('PASS');
    expect(status('did:web:localhost%3a8443', ['did:web:localhost%3A8443'])).toBe('PASS');
    expect(status('did:web:example.com:Users', ['did:web:example.com:users'])).toBe('FAIL');
    expect(status('did:web:example.com:users', ['did:web:example.com'])).toBe('FAIL');
    expect(status('did:web:example.com%3A8443', ['did:web:example.com'])).toBe('FAIL');
    expect(status(`did:webvh:${SCID}:Example.com`, [`did:webvh:${SCID}:example.com`])).toBe('PASS');
    expect(status(`did:webvh:${SCID.replace('Qm', 'Qn')}:example.com`, [`did:webvh:${SCID}:example.com`])).toBe('FAIL');
    expect(status('did:web:example.com', [`did:webvh:${SCID}:example.com`])).toBe('FAIL');
    expect(status(DID_KEY.toUpperCase().replace('DID:KEY', 'did:key'), [DID_KEY])).toBe('FAIL');
  });

  it('did:web:*.example.com: subdomains at any depth with any path; not the domain itself, another port or did:webvh', () => {
    const trusted = ['did:web:*.example.com'];
    for (const issuer of ['did:web:a.example.com', 'did:web:a.b.example.com', 'did:web:A.Example.Com:users:alice', 'did:web:a.example.com%3A443']) {
      expect(status(issuer, trusted), issuer).toBe('PASS');
    }
    for (const issuer of [
      'did:web:example.com',
      'did:web:example.com:users',
      'did:web:a.example.com%3A8443',
      `did:webvh:${SCID}:a.example.com`,
      'did:web:example.com.evil.com',
      'did:web:a.example.com.evil.com',
      'did:web:evilexample.com',
      'did:web:a.evilexample.com',
      'did:web:example.co',
      'did:web:a.example.com%2Eevil.com',
      'did:web:evil.com%2Fa.example.com',
      'did:web:a.example.com@evil.com',
    ]) {
      expect(status(issuer, trusted), issuer).toBe('FAIL');
    }
    expect(status('did:web:a.example.com%3A8443', ['did:web:*.example.com%3A8443'])).toBe('PASS');
    expect(status('did:web:a.example.com', ['did:web:*.example.com%3A8443'])).toBe('FAIL');
  });

  it('did:web:example.com:*: the DID itself and every path below it, segment by segment', () => {
    expect(status('did:web:example.com', ['did:web:example.com:*'])).toBe('PASS');
    expect(status('did:web:EXAMPLE.com:users:alice', ['did:web:example.com:*'])).toBe('PASS');
    expect(status('did:web:a.example.com', ['did:web:example.com:*'])).toBe('FAIL');
    expect(status('did:web:example.com.evil.com', ['did:web:example.com:*'])).toBe('FAIL');
    expect(status('did:web:evilexample.com', ['did:web:example.com:*'])).toBe('FAIL');
    const users = ['did:web:example.com:users:*'];
    expect(status('did:web:example.com:users', users)).toBe('PASS');
    expect(status('did:web:example.com:users:alice:keys', users)).toBe('PASS');
    expect(status('did:web:example.com:usersx', users)).toBe('FAIL');
    expect(status('did:web:example.com:users%3Aalice', users)).toBe('FAIL');
    expect(status('did:web:example.com', users)).toBe('FAIL');
    expect(status('did:web:example.com:admin:users', users)).toBe('FAIL');
    const port = ['did:web:localhost%3A8443:*'];
    expect(status('did:web:localhost%3A8443:issuers:a', port)).toBe('PASS');
    expect(status('did:web:localhost%3A8444:issuers:a', port)).toBe('FAIL');
    expect(status('did:web:localhost:issuers:a', port)).toBe('FAIL');
  });

  it('did:webvh domain forms match every SCID on the domain, and never a did:web', () => {
    expect(status(`did:webvh:${SCID}:a.example.com`, ['did:webvh:*.example.com'])).toBe('PASS');
    expect(status(`did:webvh:${SCID}:example.com:people:bob`, ['did:webvh:example.com:*'])).toBe('PASS');
    expect(status(`did:webvh:${SCID}:example.com.evil.com`, ['did:webvh:example.com:*'])).toBe('FAIL');
    expect(status('did:web:example.com', ['did:webvh:example.com:*'])).toBe('FAIL');
    expect(status('did:web:a.example.com', ['did:webvh:*.example.com'])).toBe('FAIL');
    expect(status(`did:webvh:not-a-scid:a.example.com`, ['did:webvh:*.example.com'])).toBe('FAIL');
  });
});

/* ------------------------------------------------------------------ against a definition */

const LABEL_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-';
const label = fc
  .string({ unit: fc.constantFrom(...LABEL_CHARS), minLength: 1, maxLength: 8 })
  // A letter first: a last label like "0x" or "12" makes the URL parser read the host as an IPv4 address.
  // No "xn--" label: a generated one is seldom valid Punycode ("xn--a" is not), and a did:web host
  // holding invalid Punycode is refused as no domain name.
  .filter((l) => /^[a-z]/.test(l) && !l.endsWith('-') && !l.startsWith('xn--'));
const labels = (min: number, max: number) => fc.array(label, { minLength: min, maxLength: max });
const segment = fc.string({ unit: fc.constantFrom(...'abcxyz019._-'), minLength: 1, maxLength: 5 }).filter((s) => s !== '.' && s !== '..');
/** Mixed case, as an issuer may write its host. */
const cased = (text: string, flips: boolean[]) => [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

/** The definition: a host is under the domain when its labels end with the domain's and are more. */
function isSubdomain(host: string[], domain: string[]): boolean {
  return host.length > domain.length && domain.every((l, i) => host[host.length - domain.length + i] === l);
}
const isPrefix = (prefix: string[], path: string[]) => prefix.length <= path.length && prefix.every((s, i) => path[i] === s);

describe('domain forms against their definition (fast-check)', () => {
  it('did:web:*.<domain> passes exactly the hosts whose labels end with the domain, however the text is glued', () => {
    fc.assert(
      fc.property(
        labels(2, 3),
        labels(0, 3),
        fc.constantFrom('', '.', '-', 'x'),
        labels(0, 2),
        fc.array(segment, { maxLength: 2 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        (domain, before, glue, after, path, flips) => {
          // Hosts built by gluing text around the domain: subdomains, look-alikes and suffixed names.
          const prefix = before.join('.') + (before.length > 0 ? glue : '');
          const hostText = [prefix + domain.join('.'), ...after].join('.');
          const hostLabels = hostText.split('.');
          if (hostLabels.some((l) => l === '' || l.startsWith('-') || l.endsWith('-'))) return;
          const issuer = ['did:web', cased(hostText, flips), ...path].join(':');
          const expected = isSubdomain(hostLabels, domain) ? 'PASS' : 'FAIL';
          expect(status(issuer, [`did:web:*.${domain.join('.')}`])).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('did:web:<host>[:<path>]:* passes exactly that host with the path as a prefix of segments', () => {
    fc.assert(
      fc.property(
        labels(2, 3),
        fc.array(segment, { maxLength: 2 }),
        labels(0, 1),
        fc.array(segment, { maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        (host, prefix, extraLabels, path, reuse, flips) => {
          const issuerHost = [...extraLabels, ...host].join('.');
          // Half the time the issuer's path starts with the entry's, so both answers are exercised.
          const issuerPath = reuse ? [...prefix, ...path] : path;
          const issuer = ['did:web', cased(issuerHost, flips), ...issuerPath].join(':');
          const entry = ['did:web', host.join('.'), ...prefix, '*'].join(':');
          const expected = extraLabels.length === 0 && isPrefix(prefix, issuerPath) ? 'PASS' : 'FAIL';
          expect(status(issuer, [entry])).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('an exact entry never passes another DID of another method, and never an issuer one character longer', () => {
    fc.assert(
      fc.property(labels(2, 3), fc.constantFrom('a', '.a', '-a', '0'), (host, extra) => {
        const did = `did:web:${host.join('.')}`;
        expect(status(did, [did])).toBe('PASS');
        if ([...`${host.join('.')}${extra}`.split('.')].every((l) => l !== '' && !l.startsWith('-'))) {
          expect(status(`${did}${extra}`, [did])).toBe('FAIL');
        }
        expect(status(`did:webvh:${SCID}:${host.join('.')}`, [did])).toBe('FAIL');
      }),
      { numRuns: 200 },
    );
  });
});
