/**
 * A real Prometheus scraping a real `svc serve` (docs/operations.md#metrics): the daemon started
 * with SVC_METRICS_LISTEN on loopback, Debian's prometheus scraping that listener every second;
 * after traffic, Prometheus's own query API returns svc_http_requests_total and the histogram's
 * _bucket series for the route, and `promtool check metrics` accepts the exposition. Waits poll
 * Prometheus's API. The main listener's /metrics stays the operator's (401 without the token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient, SvcError } from '../../src/client/index.js';
import { ED25519_DID } from '../support/dids.js';
import { cleanEnv, svc } from '../support/cli.js';
import { startDaemon, type Daemon } from '../support/daemon.js';
import { describePrometheus, promtoolCheck, startPrometheus, type RunningPrometheus } from '../support/prometheus.js';

const TOKEN = 'e2e-metrics-operator-4f7c9a1d2b3e5f60718293a4';

describe('svc serve with a bad SVC_METRICS_LISTEN', () => {
  it('refuses to start with one line naming the variable, exit 2', async () => {
    const run = await svc(['serve', '--memory', '--port', '0'], cleanEnv({ SVC_METRICS_LISTEN: 'localhost' }));
    expect(run.exitCode).toBe(2);
    // The refusal in one line, then the CLI's hint to the environment reference.
    expect(run.stderr.split('\n')[0]).toMatch(/^svc: USAGE_ERROR: SVC_METRICS_LISTEN must be host:port .*"localhost"$/);
  });
});

describePrometheus('Prometheus scraping svc serve (SVC_METRICS_LISTEN)', () => {
  let daemon: Daemon;
  let prometheus: RunningPrometheus | undefined;
  let metricsUrl: string;

  beforeAll(async () => {
    daemon = await startDaemon({ env: { SVC_METRICS_LISTEN: '127.0.0.1:0', SVC_ADMIN_TOKEN: TOKEN } });
    // The listener is announced right after the main one.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const match = /svc: metrics on (http:\/\/\S+\/metrics)/.exec(daemon.stderr());
      if (match) {
        metricsUrl = match[1]!;
        break;
      }
      if (Date.now() > deadline) throw new Error(`no metrics listener was announced:\n${daemon.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let i = 0; i < 3; i++) expect((await fetch(`${daemon.url}/v1/resolve/${ED25519_DID}`)).status).toBe(200);
    prometheus = await startPrometheus(new URL(metricsUrl).host);
  }, 60_000);
  afterAll(async () => {
    await prometheus?.stop();
    await daemon?.stop();
  });

  it('is what Prometheus stores: the request counter and the latency buckets of the route', async () => {
    await prometheus!.until('svc_http_requests_total{route="/v1/resolve/*",status="200"}', (result) => result.length === 1);
    const counted = await prometheus!.query('svc_http_requests_total{route="/v1/resolve/*",status="200"}');
    expect(counted[0]!.metric).toMatchObject({ job: 'svc', method: 'GET', route: '/v1/resolve/*', status: '200' });
    expect(Number(counted[0]!.value[1])).toBe(3);
    const buckets = await prometheus!.query('svc_http_request_duration_seconds_bucket{route="/v1/resolve/*",status="200"}');
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.find((b) => b.metric['le'] === '+Inf')?.value[1]).toBe('3');
    const up = await prometheus!.query('up{job="svc"}');
    expect(up[0]?.value[1]).toBe('1');
  });

  it('passes promtool check metrics', async () => {
    const text = await (await fetch(metricsUrl)).text();
    const check = promtoolCheck(text);
    expect(check.output).toBe('');
    expect(check.status).toBe(0);
  });

  it('serves nothing else on the listener; the main listener keeps /metrics for the operator', async () => {
    expect((await fetch(new URL('/health', metricsUrl))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${daemon.url}/metrics`)).status).toBe(401);
    const operator = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(operator.status).toBe(200);
    expect(await operator.text()).toContain('svc_http_requests_total');
    // The clients' metrics(): the operator's token goes along; without it, UNAUTHORIZED.
    expect(await new SvcClient({ baseUrl: daemon.url, adminToken: TOKEN }).metrics()).toContain('# TYPE svc_http_request_duration_seconds histogram');
    const refused = await new SvcClient({ baseUrl: daemon.url }).metrics().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SvcError);
    expect((refused as SvcError).code).toBe('UNAUTHORIZED');
    // On loopback the listener is no relaxation.
    const health = (await (await fetch(`${daemon.url}/health`)).json()) as { relaxations: Array<{ setting: string }> };
    expect(health.relaxations.map((r) => r.setting)).not.toContain('SVC_METRICS_LISTEN');
  });

  it('closes the listener when the daemon stops', async () => {
    await prometheus?.stop();
    expect(await daemon.stop()).toBe(0);
    await expect(fetch(metricsUrl)).rejects.toThrow();
  });
});
