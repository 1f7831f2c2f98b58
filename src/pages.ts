/**
 * The standalone web pages a command writes to a file (`svc resolve --html`, `svc inspect-mcp
 * --html`): the one door from the terminal (src/cli) to the web pages (src/web), so that neither
 * shell imports the other. Commands load it with `await import()`, only when a page is written.
 */
export { dossierPage, problemPage, type TimeMachineInput } from './web/dossier.js';
export { mcpPage, mcpProblemPage } from './web/mcp.js';
