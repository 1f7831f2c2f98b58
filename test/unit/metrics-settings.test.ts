/**
 * SVC_METRICS and SVC_METRICS_LISTEN (server/telemetry.ts metricsSettings, daemonTelemetry): on by
 * default, off measures nothing (no telemetry, no prom-client), a bad value is a one-line
 * ConfigError; a listener off loopback is a relaxation (relaxations.ts), on loopback it is not.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/node.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { operatorRelaxations } from '../../src/server/relaxations.js';
import { daemonTelemetry, metricsSettings } from '../../src/server/telemetry.js';

describe('SVC_METRICS and SVC_METRICS_LISTEN', () => {
  it('are on by default, with no listener of their own', async () => {
    expect(metricsSettings({})).toEqual({ on: true });
    const daemon = await daemonTelemetry({});
    expect(daemon.telemetry).toBeDefined();
    expect(daemon.metrics).toBe(daemon.telemetry);
    expect(await daemon.metrics!.exposition()).toContain('# TYPE svc_http_requests_total counter');
  });

  it('measure nothing when off', async () => {
    expect(await daemonTelemetry({ SVC_METRICS: 'off' })).toEqual({});
    expect(metricsSettings({ SVC_METRICS: ' OFF ' })).toEqual({ on: false });
  });

  it('read host:port and [v6]:port', () => {
    expect(metricsSettings({ SVC_METRICS_LISTEN: '127.0.0.1:9464' })).toEqual({ on: true, listen: { host: '127.0.0.1', port: 9464 } });
    expect(metricsSettings({ SVC_METRICS_LISTEN: '[::1]:0' })).toEqual({ on: true, listen: { host: '::1', port: 0 } });
    expect(metricsSettings({ SVC_METRICS_LISTEN: 'metrics.internal:9464' }).listen).toEqual({ host: 'metrics.internal', port: 9464 });
  });

  it.each([
    [{ SVC_METRICS: 'yes' }, 'SVC_METRICS must be on or off, not "yes"'],
    [{ SVC_METRICS_LISTEN: '9464' }, 'SVC_METRICS_LISTEN must be host:port'],
    [{ SVC_METRICS_LISTEN: '127.0.0.1:70000' }, 'SVC_METRICS_LISTEN must be host:port'],
    [{ SVC_METRICS_LISTEN: '[nope]:9464' }, 'SVC_METRICS_LISTEN must be host:port'],
    [{ SVC_METRICS_LISTEN: 'http://127.0.0.1:9464/metrics' }, 'SVC_METRICS_LISTEN must be host:port'],
    [{ SVC_METRICS: 'off', SVC_METRICS_LISTEN: '127.0.0.1:9464' }, 'SVC_METRICS_LISTEN is set but SVC_METRICS=off'],
  ])('refuse %j with one line', (env, message) => {
    const error = (() => {
      try {
        metricsSettings(env);
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('list a listener beyond loopback among the relaxations, not one on loopback', () => {
    const base = { egress: [], trustedProxies: [], limits: { ...DEFAULT_LIMITS, delegationRoots: [] }, profile: 'direct' as const };
    expect(operatorRelaxations({ ...base, metricsListen: { host: '127.0.0.1', port: 9464 } })).toEqual([]);
    expect(operatorRelaxations({ ...base, metricsListen: { host: '::1', port: 9464 } })).toEqual([]);
    expect(operatorRelaxations({ ...base, metricsListen: { host: '0.0.0.0', port: 9464 } })).toEqual([
      { setting: 'SVC_METRICS_LISTEN', value: '0.0.0.0:9464', effect: 'GET /metrics is served without a token on 0.0.0.0:9464, beyond this machine' },
    ]);
    expect(operatorRelaxations({ ...base, metricsListen: { host: 'fd00::5', port: 9464 } })[0]?.value).toBe('[fd00::5]:9464');
  });
});
