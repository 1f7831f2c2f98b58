/**
 * Every schema with an `$id`, registered once with `app.addSchema` (app.ts): @fastify/swagger
 * emits them as `components.schemas`, named by their `$id`, and routes refer to them with
 * `ref(schema)` (common.ts: `Type.Ref` of its `$id`). The order here is the order of
 * `components.schemas` in openapi.json.
 */
import type { TSchema } from 'typebox';
import { CLAIM_SCHEMAS } from './claims.js';
import { BILLING_SCHEMAS, COMMERCIAL_SCHEMAS } from './commercial.js';
import { COMMON_SCHEMAS } from './common.js';
import { DELEGATION_SCHEMAS } from './delegation.js';
import { INSPECTION_SCHEMAS } from './inspection.js';
import { MONITORING_SCHEMAS } from './monitoring.js';
import { PRESENTATION_SCHEMAS } from './presentations.js';
import { PROBE_SCHEMAS } from './probes.js';
import { RESOLUTION_SCHEMAS } from './resolution.js';
import { SESSION_KEY_SCHEMAS } from './session-keys.js';
import { SESSION_MONITOR_SCHEMAS } from './session-monitor.js';
import { VC_API_SCHEMAS } from './vc-api.js';
import { VERIFICATION_SCHEMAS } from './verification.js';
import { WEBHOOK_SCHEMAS } from './webhooks.js';

export const ALL_SCHEMAS: readonly TSchema[] = [
  ...COMMON_SCHEMAS,
  ...PROBE_SCHEMAS,
  ...RESOLUTION_SCHEMAS,
  ...VERIFICATION_SCHEMAS,
  ...PRESENTATION_SCHEMAS,
  ...VC_API_SCHEMAS,
  ...DELEGATION_SCHEMAS,
  ...INSPECTION_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...MONITORING_SCHEMAS,
  ...CLAIM_SCHEMAS,
  ...COMMERCIAL_SCHEMAS,
  ...SESSION_KEY_SCHEMAS,
  ...BILLING_SCHEMAS,
  ...SESSION_MONITOR_SCHEMAS,
];
