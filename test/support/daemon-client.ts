/**
 * Integration tests of the daemon's routes over real HTTP: one request helper that keeps the
 * status, the headers and the body, the checks every answer must pass (exact status and content
 * type, the SPEC §1 headers — on successes and on problems alike), a daemon set up to reach a
 * loopback did:web host as an operator would configure it (the host's CA through
 * NODE_EXTRA_CA_CERTS, 127.0.0.0/8 through SVC_EGRESS_ALLOW), and polling with a deadline.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { startDaemon, type Daemon, type DaemonOptions } from './daemon.js';
import type { DidWebHost } from './did-web-host.js';

export interface Answer {
  status: number;
  headers: Headers;
  /** The header value, '' when absent. */
  header(name: string): string;
  text: string;
  /** The body parsed as JSON (throws with the text when it is not JSON). */
  json(): any;
}

/** One request; the body is read whole. */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    header: (name) => res.headers.get(name) ?? '',
    text,
    json: () => {
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`not JSON (status ${res.status}): ${text.slice(0, 300)}`);
      }
    },
  };
}

/** SPEC §1: every answer, success or problem, carries these. */
export function expectCommonHeaders(answer: Answer): void {
  expect({
    'x-content-type-options': answer.header('x-content-type-options'),
    'referrer-policy': answer.header('referrer-policy'),
    'access-control-allow-origin': answer.header('access-control-allow-origin'),
  }).toEqual({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'access-control-allow-origin': '*' });
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
export const DID_TYPE = 'application/did';
export const DID_RESOLUTION_TYPE = 'application/did-resolution';

/** Exact status and content type plus the common headers; returns the JSON body. */
export function expectJson(answer: Answer, status: number, contentType = JSON_TYPE): any {
  expect({ status: answer.status, contentType: answer.header('content-type') }, answer.text.slice(0, 500)).toEqual({ status, contentType });
  expectCommonHeaders(answer);
  return answer.json();
}

export const W3C_TYPE = (code: string) => `https://www.w3.org/ns/did#${code}`;

/** A /v1 problem: exact status, application/problem+json, the common headers, the code and its type URI. */
export function expectProblem(answer: Answer, status: number, code: string): any {
  const problem = expectJson(answer, status, PROBLEM_TYPE);
  expect(problem).toMatchObject({ status, code });
  expect(typeof problem.title).toBe('string');
  expect(typeof problem.detail).toBe('string');
  expect(problem.type).toMatch(new RegExp(`#${code}$`));
  return problem;
}

/**
 * A daemon that trusts the host's CA and may fetch from loopback (no host: neither). Its rate
 * bucket is raised out of the way: the limits have their own tests (daemon-limits.test.ts).
 */
export async function startDaemonFor(host: DidWebHost | null, options: DaemonOptions = {}): Promise<Daemon> {
  const caDir = mkdtempSync(path.join(tmpdir(), 'svc-daemon-ca-'));
  const env: Record<string, string | undefined> = { SVC_RATE_LIMIT_PER_MIN: '100000', ...options.env };
  if (host) {
    const file = path.join(caDir, 'ca.pem');
    writeFileSync(file, host.ca.certPem);
    env['NODE_EXTRA_CA_CERTS'] = file;
    env['SVC_EGRESS_ALLOW'] = '127.0.0.0/8';
  }
  let daemon: Daemon;
  try {
    daemon = await startDaemon({ ...options, env });
  } catch (err) {
    rmSync(caDir, { recursive: true, force: true });
    throw err;
  }
  const stop = daemon.stop.bind(daemon);
  daemon.stop = async (signal) => {
    try {
      return await stop(signal);
    } finally {
      rmSync(caDir, { recursive: true, force: true });
    }
  };
  return daemon;
}

/** Polls `check` until it returns true; fails naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
