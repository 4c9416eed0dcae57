// The official TypeScript client (@modelcontextprotocol/sdk) in one session with a stdio server
// (for interop/test_proxy_clients.py: `schema-compat proxy` or the server itself):
//
//   PLAN='{"call": {"name": N, "arguments": {...}}, "expectError": false}' \
//     node ts_proxy_client.mjs COMMAND [ARG...]
//
// lists every page of tools, then makes the call, and prints one JSON object on stdout:
// {"tools": [...], "result": CallToolResult} or, with "expectError", {"tools": [...],
// "error": message, "seconds": time from sending the call to the error}. The server inherits
// this process's environment, as an MCP client configured with an env block passes it.
// Exits 1 with a one-line message on any other failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

async function main() {
  const plan = JSON.parse(process.env.PLAN ?? "{}");
  const [command, ...args] = process.argv.slice(2);
  if (!command || !plan.call) throw new Error("usage: PLAN=... ts_proxy_client.mjs COMMAND [ARG...]");
  const transport = new StdioClientTransport({
    command, args, env: { ...process.env }, stderr: "ignore",
  });
  const client = new Client({ name: "schema-compat-interop", version: "0" });
  await client.connect(transport);
  const tools = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (cursor === undefined || cursor === "") break;
  }
  const out = { tools };
  const start = performance.now();
  try {
    out.result = await client.callTool(plan.call, undefined, { timeout: 60000 });
  } catch (err) {
    if (!plan.expectError) throw err;
    out.error = err && err.message ? err.message : String(err);
    out.seconds = (performance.now() - start) / 1000;
  }
  process.stdout.write(JSON.stringify(out) + "\n");
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`ts_proxy_client: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
