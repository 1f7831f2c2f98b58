/**
 * The live progress reporter (src/cli/cmdutil/progress.ts) in process, its delay injected: what
 * a terminal sees depends on whether the work ends before the delay, never on how fast the
 * machine is. (test/integration/cli-progress.e2e.test.ts runs the real CLI in a terminal.)
 */
import { describe, expect, it } from 'vitest';
import { watchStages } from '../../src/cli/cmdutil/progress.js';
import { plainStyle } from '../../src/cli/cmdutil/layout.js';
import type { TraceStage } from '../../src/core/resolve/types.js';

function terminal(): { stream: { write(chunk: string): boolean; isTTY: boolean; columns: number }; text(): string } {
  const chunks: string[] = [];
  return {
    stream: {
      write: (chunk: string) => {
        chunks.push(chunk);
        return true;
      },
      isTTY: true,
      columns: 100,
    },
    text: () => chunks.join(''),
  };
}

const stage = (name: string, durationUs: number): TraceStage =>
  ({ stage: name, label: `the ${name} stage`, status: 'PASS', startedUs: 0, durationUs }) as TraceStage;

/** Lets the timers that are due run. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('live progress', () => {
  it('shows nothing for work that ends before the delay (a did:key), its stages included', async () => {
    const out = terminal();
    const watch = watchStages(out.stream, { live: true, verbose: false, style: plainStyle, delayMs: 60_000 });
    watch.hooks.onStageStart?.({ stage: 'key.decode', label: 'the key.decode stage' } as never);
    watch.hooks.onStage?.(stage('key.decode', 120));
    watch.hooks.onStage?.(stage('document.build', 80));
    watch.done();
    await tick();
    expect(out.text()).toBe('');
  });

  it('once the delay has passed, lists the stages already finished, then the live line, cleared by done()', async () => {
    const out = terminal();
    const watch = watchStages(out.stream, { live: true, verbose: false, style: plainStyle, delayMs: 0 });
    watch.hooks.onStage?.(stage('dns.lookup', 3_000));
    watch.hooks.onStageStart?.({ stage: 'web.fetch', label: 'Fetch https://example.com/.well-known/did.json' } as never);
    await tick();
    watch.hooks.onStage?.({ ...stage('web.fetch', 2_004_000), label: 'Fetch https://example.com/.well-known/did.json' });
    watch.done();
    const text = out.text();
    expect(text).toMatch(/✓ dns\.lookup +3\.0 ms {2}the dns\.lookup stage\n/);
    expect(text).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] web\.fetch {2}\d+\.\d s {2}Fetch https:\/\/example\.com\/\.well-known\/did\.json/);
    expect(text).toMatch(/✓ web\.fetch +2004 ms {2}Fetch https:\/\/example\.com\/\.well-known\/did\.json\n/);
    expect(text.indexOf('dns.lookup')).toBeLessThan(text.indexOf('web.fetch'));
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });

  it('shows nothing when output is not live (piped, --json, --quiet), whatever the time', async () => {
    const out = terminal();
    const watch = watchStages(out.stream, { live: false, verbose: false, style: plainStyle, delayMs: 0 });
    watch.hooks.onStage?.(stage('web.fetch', 2_000_000));
    await tick();
    watch.done();
    expect(out.text()).toBe('');
  });
});
