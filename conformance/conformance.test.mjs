// Conformance with the converters that real clients run on a tool's JSON Schema before it goes
// to Gemini: LangChain's `convertToGeminiTools` (@langchain/google-common, the source of "Gemini
// cannot handle union types") and the AI SDK's Google provider (@ai-sdk/google), whose request
// is built for real and caught by a stubbed `fetch`. Nothing leaves the machine: the global
// `fetch` throws, and the stub answers locally.
//
// Every tool from `inputs.json` (written by prepare.py from `schema-compat transform` output)
// goes through both converters twice, as the original and as our `gemini` output. Our output
// must be accepted by both and its nested objects must arrive as objects (not STRING, not {}).
// What each converter did to every tool is written to results.json for docs/conformance.md.
//
// Environment: CONFORMANCE_DIR = folder with node_modules/ (the npm cache) and inputs.json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.CONFORMANCE_DIR;
if (!dir) throw new Error("CONFORMANCE_DIR is not set (run `make conformance`)");
const require = createRequire(path.join(path.resolve(dir), "package.json"));
const { convertToGeminiTools } = require("@langchain/google-common");
const { createGoogleGenerativeAI } = require("@ai-sdk/google");
const versions = Object.fromEntries(
  ["@langchain/google-common", "@langchain/core", "@ai-sdk/google"].map((name) => [
    name,
    JSON.parse(readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")).version,
  ]),
);
const inputs = JSON.parse(readFileSync(path.join(dir, "inputs.json"), "utf8"));

// Nothing may reach the network: any fetch that is not our stub fails the run.
let strayRequests = 0;
globalThis.fetch = async (url) => {
  strayRequests += 1;
  throw new Error(`network access attempted: ${url}`);
};

const GEMINI_REPLY = {
  candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
};

function langchain(tool, schema) {
  const out = convertToGeminiTools([{ name: tool.name, description: tool.description ?? "", schema }]);
  const decl = out[0].functionDeclarations[0];
  return { parameters: decl.parameters };
}

async function aiSdk(tool, schema) {
  const bodies = [];
  const stub = async (url, init) => {
    assert.match(String(url), /^https:\/\/generativelanguage\.googleapis\.com\//);
    bodies.push(JSON.parse(init.body));
    return new Response(JSON.stringify(GEMINI_REPLY), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const google = createGoogleGenerativeAI({ apiKey: "offline-test-key", fetch: stub });
  const result = await google("gemini-2.5-flash").doGenerate({
    prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [{ type: "function", name: tool.name, description: tool.description ?? "", inputSchema: schema }],
  });
  assert.equal(bodies.length, 1);
  const decl = bodies[0].tools[0].functionDeclarations[0];
  const warnings = (result.warnings ?? []).map((w) => w.feature ?? w.message ?? w.type);
  if ("parametersJsonSchema" in decl) {
    return { parameters: decl.parametersJsonSchema, field: "parametersJsonSchema", warnings };
  }
  return { parameters: decl.parameters, field: "parameters", warnings };
}

const CONVERTERS = { langchain, "ai-sdk": aiSdk };

/** Every object node of `ours` (our Gemini output) must be an object in `theirs`, with the
 * same property names; every array must keep its items. Returns the paths that broke. */
function lostStructure(ours, theirs, where = "$", broken = []) {
  if (!ours || typeof ours !== "object") return broken;
  const type = String(ours.type ?? "").toLowerCase();
  const got = theirs && typeof theirs === "object" ? theirs : undefined;
  const gotType = String(got?.type ?? "").toLowerCase();
  if (type === "object") {
    const props = Object.keys(ours.properties ?? {});
    // A root without properties may be sent as no parameters at all (the AI SDK does so).
    if (where === "$" && !props.length && got === undefined) return broken;
    if (!got || (gotType !== "object" && where !== "$")) {
      broken.push(`${where}: object became ${JSON.stringify(got?.type ?? got)}`);
      return broken;
    }
    const gotProps = Object.keys(got.properties ?? {});
    if (props.length && JSON.stringify([...props].sort()) !== JSON.stringify([...gotProps].sort())) {
      broken.push(`${where}: properties ${props} became ${gotProps}`);
    }
    for (const key of props) {
      lostStructure(ours.properties[key], got.properties?.[key], `${where}.properties[${JSON.stringify(key)}]`, broken);
    }
  } else if (type === "array") {
    if (!got || gotType !== "array" || !got.items) {
      broken.push(`${where}: array became ${JSON.stringify(got?.type ?? got)}`);
      return broken;
    }
    lostStructure(ours.items, got.items, `${where}.items`, broken);
  }
  return broken;
}

// Keywords that reach the wire: which ones the converter dropped or added, for the table.
function keywords(schema, acc = new Map(), where = "$") {
  if (Array.isArray(schema)) schema.forEach((s, i) => keywords(s, acc, `${where}[${i}]`));
  else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (!(where.endsWith(".properties"))) acc.set(key, (acc.get(key) ?? 0) + 1);
      keywords(value, acc, `${where}.${key}`);
    }
  }
  return acc;
}

function keywordDelta(before, after) {
  const a = keywords(before);
  const b = keywords(after);
  const dropped = [...a.keys()].filter((k) => (b.get(k) ?? 0) < a.get(k));
  const added = [...b.keys()].filter((k) => (a.get(k) ?? 0) < b.get(k));
  return { dropped, added };
}

const results = [];
for (const tool of inputs) {
  for (const variant of ["original", "transformed"]) {
    const schema = tool[variant];
    const name = variant === "original" ? tool.name : tool.transformed_name;
    for (const [converter, convert] of Object.entries(CONVERTERS)) {
      const row = { source: tool.source, tool: tool.name, variant, converter };
      try {
        const out = await convert({ ...tool, name }, structuredClone(schema));
        Object.assign(row, { accepted: true, output: out.parameters ?? null, field: out.field ?? "parameters" });
        if (out.warnings?.length) row.warnings = out.warnings;
        Object.assign(row, keywordDelta(schema, out.parameters ?? {}));
        if (variant === "transformed") row.lost = lostStructure(schema, out.parameters);
      } catch (error) {
        Object.assign(row, { accepted: false, error: String(error?.message ?? error).split("\n")[0] });
      }
      results.push(row);
    }
  }
}
writeFileSync(path.join(dir, "results.json"), JSON.stringify({ versions, results }, null, 1));

const byTool = new Map(inputs.map((t) => [`${t.source} ${t.name}`, t]));
const flagged = (row) => byTool.get(`${row.source} ${row.tool}`).findings.includes("CNV001");
const ours = (converter) => results.filter((r) => r.variant === "transformed" && r.converter === converter);

test("the corpus and the cases are all there", () => {
  assert.ok(inputs.length > 600, `only ${inputs.length} tools`);
  assert.ok(inputs.some((t) => t.source === "tests/data/cases/fidelity.json"));
});

for (const converter of Object.keys(CONVERTERS)) {
  test(`${converter} accepts every tool of our gemini output`, () => {
    // LangChain walks the `properties` map as if it were a schema, so a property *named*
    // `anyOf` or `oneOf` makes it throw: our CNV001 warning predicts it, and only tools with
    // that warning may be rejected (docs/conformance.md).
    const rejected = ours(converter).filter((r) => !r.accepted);
    const unexpected = rejected.filter((r) => !(converter === "langchain" && flagged(r)));
    assert.deepEqual(unexpected.map((r) => `${r.source} ${r.tool}: ${r.error}`), []);
    for (const r of rejected) assert.match(r.error, /cannot handle union types/);
  });

  test(`${converter} keeps every nested object of our output an object`, () => {
    const broken = ours(converter).filter(
      (r) => r.accepted && r.lost.length && !(converter === "langchain" && flagged(r)));
    assert.deepEqual(broken.map((r) => `${r.source} ${r.tool}: ${r.lost.join("; ")}`), []);
  });

  test(`${converter} sends our output as \`parameters\`, never a JSON Schema fallback`, () => {
    const fallback = ours(converter).filter((r) => r.accepted && r.field !== "parameters");
    assert.deepEqual(fallback.map((r) => `${r.source} ${r.tool}`), []);
  });
}

test("fs-mcp's read_files reaches both converters with object items", () => {
  for (const converter of Object.keys(CONVERTERS)) {
    const row = ours(converter).find(
      (r) => r.source === "corpus/servers/fs-mcp-repro-mcp-sdk.json" && r.tool === "read_files",
    );
    assert.ok(row?.accepted, converter);
    assert.equal(row.output.properties.files.items.type.toLowerCase(), "object", converter);
    assert.ok("path" in row.output.properties.files.items.properties, converter);
  }
});

test("LangChain rejects an original union that our output resolves (the known failure)", () => {
  const rejected = results.filter(
    (r) => r.converter === "langchain" && r.variant === "original" && !r.accepted,
  );
  assert.ok(rejected.some((r) => /cannot handle union types/.test(r.error)), "no union rejection seen");
});

test("CNV001 predicts LangChain's misreading: every flagged tool is rejected or loses a property", () => {
  const rows = ours("langchain").filter(flagged);
  assert.ok(rows.length >= 2, "the keyword-named cases are missing");
  for (const r of rows) assert.ok(!r.accepted || r.lost.length, `${r.source} ${r.tool}`);
});

test("no request left the machine", () => {
  assert.equal(strayRequests, 0);
});
