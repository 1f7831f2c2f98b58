/** What `svc claim`, `svc claims` and `svc directory` print: the daemon's answers as text (--json prints them as they are). */
import type { Claim, ClaimChallenge, ClaimList, ClaimVerification, DirectoryPage } from '../../../client/index.js';
import { printable } from '../../../present/text.js';
import { table } from '../../cmdutil/table.js';

function claimLines(claim: Claim): string[] {
  return [
    `  ${claim.method}: ${printable(claim.subject)}`,
    `    proves          ${printable(claim.proves)}`,
    ...claim.doesNotProve.map((d, i) => `    ${i === 0 ? 'does not prove ' : '               '} ${printable(d)}`),
    `    verified ${claim.verifiedAt}, last checked ${claim.lastCheckedAt}, expires ${claim.expiresAt}${claim.nextCheckAt ? `, next re-check ${claim.nextCheckAt}` : ''}`,
  ];
}

export function challengeText(challenge: ClaimChallenge, did: string): string {
  const lines = [`challenge for ${printable(did)} (${challenge.method}, purpose ${challenge.purpose}), expires ${challenge.expiresAt}`];
  if (challenge.wellKnown)
    lines.push('Host this line in the file:', `  url      ${printable(challenge.wellKnown.url)}`, `  line     ${printable(challenge.wellKnown.content)}`);
  if (challenge.dns)
    lines.push(
      'Publish this DNS record:',
      `  name     ${printable(challenge.dns.name)}`,
      `  type     ${challenge.dns.type}`,
      `  value    ${printable(challenge.dns.value)}`,
    );
  if (challenge.signature) lines.push('Sign this JWS payload with a key under authentication:', `  payload  ${printable(challenge.signature.payload)}`);
  lines.push(`token      ${printable(challenge.token)}`, '');
  return lines.join('\n');
}

export function verificationText(result: ClaimVerification): string {
  if (!result.verified) return `refused: ${result.refusal?.code ?? 'REFUSED'}: ${printable(result.refusal?.reason ?? 'no reason given')}\n`;
  const lines = [`verified: ${printable(result.did)}`];
  if (result.claim) lines.push(...claimLines(result.claim));
  if (result.listed !== null) lines.push(`  listed in the directory: ${result.listed ? 'yes' : 'no'}`);
  return `${lines.join('\n')}\n`;
}

export function claimsText(list: ClaimList): string {
  const lines = [
    `${printable(list.did)}: ${list.claims.length === 0 ? 'no current claim' : `${list.claims.length} current claim${list.claims.length === 1 ? '' : 's'}`}${list.listed ? ' (listed in the directory)' : ''}`,
  ];
  for (const claim of list.claims) lines.push(...claimLines(claim));
  if (list.lapsed.length > 0) {
    lines.push('lapsed:');
    for (const l of list.lapsed) lines.push(`  ${l.method}: ${printable(l.subject)} lapsed ${l.lapsedAt}: ${printable(l.reason)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function directoryText(page: DirectoryPage): string {
  if (page.entries.length === 0) return 'no listed identifiers\n';
  return table(
    ['DID', 'METHOD', 'LISTED', 'CLAIMS'],
    page.entries.map((e) => [e.did, e.method, e.listedAt, e.claims.map((c) => c.method).join(', ')]),
  );
}
