// svc's stand-in for pipenet, put in place by the "overrides" of svc's package.json.
//
// fastmcp (an MCP server framework in the interoperability matrix, test/support/mcp-peers) depends
// on mcp-proxy, which depends on pipenet for one feature of its own command line: `mcp-proxy
// --tunnel`. The library that fastmcp imports never loads it, and neither does any test. Every
// pipenet release declares Node.js >= 22, so the real package made `npm ci` warn (EBADENGINE) on the
// Node.js 20 that svc supports; this stub keeps the name resolvable and fails loudly if ever called.
export async function pipenet() {
  throw new Error("pipenet is not installed in svc's development tree (a stub, see test/support/stubs/pipenet); mcp-proxy --tunnel is unavailable");
}
