/** Which pager svc runs, and how tall a report is (src/cli/cmdutil/pager.ts, paging.ts); the pager itself: test/integration/cli-pager.e2e.test.ts. */
import { describe, expect, it } from 'vitest';
import { pagerCommand } from '../../src/cli/cmdutil/pager.js';
import { rowsOf } from '../../src/cli/cmdutil/paging.js';

describe('pagerCommand', () => {
  it('is less -FRX by default, SVC_PAGER before PAGER, an empty value as unset', () => {
    expect(pagerCommand({})).toMatchObject({ program: 'less', args: ['-FRX'] });
    expect(pagerCommand({ PAGER: 'most -s' })).toMatchObject({ program: 'most', args: ['-s'] });
    expect(pagerCommand({ SVC_PAGER: 'more', PAGER: 'most' })).toMatchObject({ program: 'more', args: [] });
    expect(pagerCommand({ SVC_PAGER: '', PAGER: '  ' })).toMatchObject({ program: 'less', args: ['-FRX'] });
  });

  it('cat means none; a bare less gets LESS=FRX unless LESS is set', () => {
    expect(pagerCommand({ SVC_PAGER: 'cat' })).toBeNull();
    expect(pagerCommand({ PAGER: 'less' })?.env['LESS']).toBe('FRX');
    expect(pagerCommand({ PAGER: '/usr/bin/less' })?.env['LESS']).toBe('FRX');
    expect(pagerCommand({ PAGER: 'less', LESS: 'R' })?.env['LESS']).toBe('R');
    expect(pagerCommand({ PAGER: 'less -S' })?.env['LESS']).toBeUndefined();
  });
});

describe('rowsOf', () => {
  it('counts lines, wraps long ones at the width, ignores colour codes', () => {
    expect(rowsOf('a\nb\n', 80)).toBe(2);
    expect(rowsOf('a\n\nb', 80)).toBe(3);
    expect(rowsOf(`${'x'.repeat(100)}\n`, 40)).toBe(3);
    expect(rowsOf(`\u001b[1m${'x'.repeat(40)}\u001b[22m\n`, 40)).toBe(1);
  });
});
