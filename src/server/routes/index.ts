/**
 * Every route of the daemon, in the order they are registered (app.ts adds GET /openapi.json
 * last). Each routes/<x>.ts has its schemas in schemas/<x>.ts.
 */
import type { RouteDef, ServerContext } from '../context.js';
import { claimRoutes } from './claims.js';
import { commercialRoutes } from './commercial.js';
import { delegationRoutes } from './delegation.js';
import { inspectionRoutes } from './inspection.js';
import { monitoringRoutes } from './monitoring.js';
import { presentationRoutes } from './presentations.js';
import { probeRoutes } from './probes.js';
import { resolutionRoutes } from './resolution.js';
import { sessionKeyRoutes } from './session-keys.js';
import { sessionMonitorRoutes } from './session-monitor.js';
import { sessionProjectRoutes } from './session-projects.js';
import { vcApiRoutes } from './vc-api.js';
import { verificationRoutes } from './verification.js';
import { w3cRoutes } from './w3c.js';
import { webRoutes } from './web.js';

export function appRoutes(ctx: ServerContext): RouteDef[] {
  return [
    ...probeRoutes(ctx),
    ...resolutionRoutes(ctx),
    ...verificationRoutes(ctx),
    ...presentationRoutes(ctx),
    ...vcApiRoutes(ctx),
    ...delegationRoutes(ctx),
    ...inspectionRoutes(ctx),
    ...w3cRoutes(ctx),
    ...webRoutes(ctx).map((route): RouteDef => ({ ...route, auth: 'anonymous' })),
    ...claimRoutes(ctx),
    ...monitoringRoutes(ctx).map((route): RouteDef => ({ ...route, auth: 'operator' })),
    ...commercialRoutes(ctx),
    ...sessionKeyRoutes(ctx),
    ...sessionProjectRoutes(ctx),
    ...sessionMonitorRoutes(ctx),
  ];
}
