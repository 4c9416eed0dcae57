// Lists a server's tools with the official TypeScript SDK 2 client (@modelcontextprotocol/client)
// in its `auto` version negotiation (server/discover, else initialize), and prints the
// negotiated era and protocol version with the tools/list result as JSON on stdout.
//
//   node ts2_list.mjs --stdio COMMAND [ARG...]   (the server inherits this process's environment)
//   node ts2_list.mjs --http URL                 (streamable HTTP)
//
// Every page is followed (nextCursor). Exits 1 with a one-line message on any failure.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

function transportFor(argv) {
  const [mode, ...rest] = argv;
  if (mode === "--stdio" && rest.length > 0) {
    return new StdioClientTransport({
      command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: "ignore",
    });
  }
  if (mode === "--http" && rest.length === 1) {
    return new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  throw new Error("usage: ts2_list.mjs --stdio COMMAND [ARG...] | --http URL");
}

async function main() {
  const transport = transportFor(process.argv.slice(2));
  const client = new Client(
    { name: "schema-compat-interop", version: "0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(transport);
  const tools = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") break;
  }
  const out = {
    era: client.getProtocolEra() ?? null,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    server: client.getServerVersion() ?? null,
    tools,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
  await client.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`ts2_list: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
