// Lists a server's tools with the official TypeScript client (@modelcontextprotocol/sdk) and
// prints the tools/list result as JSON on stdout: the reference the interop suite compares
// schema-compat's live listing with.
//
//   node ts_list.mjs --stdio COMMAND [ARG...]   (the server inherits this process's environment)
//   node ts_list.mjs --http URL                 (streamable HTTP)
//   node ts_list.mjs --sse URL                  (legacy HTTP+SSE)
//
// Every page is followed (nextCursor). Exits 1 with a one-line message on any failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

function transportFor(argv) {
  const [mode, ...rest] = argv;
  if (mode === "--stdio" && rest.length > 0) {
    // The SDK's default gives the server only a few variables (HOME, PATH, ...): pass them all,
    // as an MCP client configured with an env block does, so dummy tokens reach the server.
    return new StdioClientTransport({
      command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: "ignore",
    });
  }
  if (mode === "--http" && rest.length === 1) {
    return new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  if (mode === "--sse" && rest.length === 1) {
    return new SSEClientTransport(new URL(rest[0]));
  }
  throw new Error("usage: ts_list.mjs --stdio COMMAND [ARG...] | --http URL | --sse URL");
}

async function main() {
  const transport = transportFor(process.argv.slice(2));
  const client = new Client({ name: "schema-compat-interop", version: "0" });
  await client.connect(transport);
  const tools = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") break;
  }
  const out = { server: client.getServerVersion() ?? null, tools };
  process.stdout.write(JSON.stringify(out) + "\n");
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`ts_list: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
