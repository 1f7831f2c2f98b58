import { buildApp } from '../src/server/app.js';
import { createRuntime } from '../src/index.js';
const runtime = createRuntime(process.env);
const ctx: any = { runtime, storage: { }, profile: 'direct', limits: (await import('../src/server/limits.js')).DEFAULT_LIMITS, capacity: {}, startedAt: new Date(), draining: false, active: 0 };
const app = buildApp(ctx);
await app.ready();
try { app.swagger(); console.log('ok'); } catch (e) { console.error(e); }
