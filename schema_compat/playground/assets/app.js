// schema-compat playground: plain modern JavaScript, no build step, no dependencies.
// Everything the server sends that came from a tool (names, descriptions, schemas) is put in
// the page as text (textContent), never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { run: null, matrix: null, provider: null, cell: null, polling: null };
// The static site (`make site`) marks its page: there the engine runs in this page, in
// Pyodide, and the API calls go to it instead of to `schema-compat serve`.
const STATIC = document.documentElement.dataset.mode === "static";
let engine = null; // static: a promise of the Python `handle` function

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function loadEngine() {
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", document.baseURI).href });
  const packages = await fetch("py/packages.zip");
  if (!packages.ok) throw new Error(`py/packages.zip: HTTP ${packages.status}`);
  pyodide.unpackArchive(await packages.arrayBuffer(), "zip", { extractDir: "/home/pyodide/lib" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
  return pyodide.pyimport("schema_compat.playground.static").Site().handle;
}

// One call of the engine in this page: {status, data} or {status, text, filename}.
async function staticCall(path, body) {
  const handle = await engine;
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))); // paint first
  const method = body === undefined ? "GET" : "POST";
  return JSON.parse(handle(method, path, body === undefined ? null : JSON.stringify(body)));
}

async function api(path, body) {
  if (STATIC) {
    const answer = await staticCall(path, body);
    if (answer.status >= 400) throw new Error(answer.data.error);
    return answer.data;
  }
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: reported below */ }
  if (!response.ok) throw new Error((data && data.error) || `HTTP ${response.status}`);
  return data;
}

// A download's text, or the one-line error the engine gave for it.
async function download(path) {
  if (STATIC) {
    const answer = await staticCall(path);
    if (answer.status >= 400) throw new Error(answer.data.error);
    return answer.text;
  }
  const response = await fetch(path);
  if (!response.ok) {
    let data = null;
    try { data = await response.json(); } catch { /* reported below */ }
    throw new Error((data && data.error) || `HTTP ${response.status}`);
  }
  return response.text();
}

async function saveLink(link) {
  const status = $("copy-status");
  try {
    const text = await download(link.getAttribute("href"));
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const save = el("a", { href: url, download: link.getAttribute("download") });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = "";
  } catch (error) {
    status.textContent = error.message;
  }
}

function query(params) {
  return new URLSearchParams(params).toString();
}

// --- input ------------------------------------------------------------------------------

async function checkText(text, label) {
  const status = $("input-status");
  status.textContent = "Checking…";
  status.className = "status";
  try {
    const started = performance.now();
    const data = await api("api/analyze", { text, label });
    status.textContent = `Checked in ${Math.round(performance.now() - started)} ms`;
    showMatrix(data);
  } catch (error) {
    status.textContent = error.message;
    status.className = "status error";
  }
}

function setupInput() {
  $("check").addEventListener("click", () => checkText($("source").value, "<pasted>"));
  $("source").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("check").click();
  });
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (file) await loadFile(file);
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) await loadFile(file);
  });
}

async function loadFile(file) {
  const text = await file.text();
  $("source").value = text;
  await checkText(text, `<dropped ${file.name}>`);
}

// --- live servers -----------------------------------------------------------------------

async function loadServers() {
  const select = $("servers");
  try {
    const data = await api("api/servers");
    select.replaceChildren();
    let count = 0;
    for (const config of data.configs) {
      const group = el("optgroup", { label: config.path });
      for (const server of config.servers) {
        group.append(el("option", {
          value: JSON.stringify({ config: config.path, server: server.name }),
          text: `${server.name}  (${server.kind}: ${server.what})`,
        }));
        count += 1;
      }
      if (config.servers.length) select.append(group);
    }
    if (!count) select.append(el("option", { value: "", text: "(no servers in any client config here)" }));
    $("list").disabled = count === 0;
    const read = data.configs.map((c) => c.path);
    $("configs").textContent = read.length
      ? `Client configs read: ${read.join(", ")}`
      : `No client config in ${data.directory} or your home folder (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, .gemini/settings.json, Claude Desktop).`;
    const problems = data.configs.flatMap((c) => c.errors);
    if (problems.length) $("configs").textContent += ` — ${problems.join("; ")}`;
  } catch (error) {
    select.replaceChildren(el("option", { value: "", text: `(cannot read configs: ${error.message})` }));
  }
}

async function listLive() {
  const value = $("servers").value;
  if (!value) return;
  const status = $("live-status");
  status.className = "status busy";
  status.textContent = "Starting…";
  $("list").disabled = true;
  try {
    let job = await api("api/live", JSON.parse(value));
    while (!job.done) {
      status.textContent = `${job.progress} (${job.elapsed.toFixed(1)} s)`;
      await new Promise((resolve) => setTimeout(resolve, 150));
      job = await api(`api/job?${query({ id: job.job })}`);
    }
    if (job.error) throw new Error(job.error);
    status.className = "status";
    status.textContent = `Listed ${job.matrix.tools.length} tools from ${job.server} in ${job.elapsed.toFixed(1)} s`;
    showMatrix(job.matrix);
  } catch (error) {
    status.className = "status error";
    status.textContent = error.message;
  } finally {
    $("list").disabled = false;
  }
}

// --- the matrix -------------------------------------------------------------------------

const SYMBOL = { compatible: "✓", fixable: "fix", "fixable-lossy": "lossy", incompatible: "✗" };

function cellText(summary) {
  const symbol = SYMBOL[summary.cell];
  if (summary.cell === "compatible") return summary.warning ? `${symbol} ${summary.warning}w` : symbol;
  const parts = [];
  if (summary.error) parts.push(`${summary.error}e`);
  if (summary.warning) parts.push(`${summary.warning}w`);
  return `${symbol} ${parts.join(" ")}`.trim();
}

function showMatrix(data) {
  state.run = data.run;
  state.matrix = data;
  state.cell = null;
  $("detail").hidden = true;
  const providers = data.providers;
  const table = $("matrix");
  const head = el("tr", {}, el("th", { scope: "col", class: "tool-head", text: `tool (${data.tools.length})` }));
  for (const p of providers) {
    const totals = data.cells[p.name].reduce((acc, c) => { acc[c.cell] = (acc[c.cell] || 0) + 1; return acc; }, {});
    head.append(el("th", { scope: "col", title: `${p.title}: ${totals.compatible || 0} compatible, ${totals.incompatible || 0} still rejected` },
      el("span", { class: "pname", text: p.name }),
      el("span", { class: "ptotal", text: `${totals.compatible || 0}✓ ${totals.incompatible || 0}✗` })));
  }
  const body = document.createDocumentFragment();
  data.tools.forEach((tool, i) => {
    const row = el("tr", {}, el("th", { scope: "row", class: "tool", text: tool.name }));
    for (const p of providers) {
      const summary = data.cells[p.name][i];
      const label = `${tool.name} for ${p.name}: ${summary.cell}`;
      row.append(el("td", {},
        el("button", {
          type: "button", class: `c ${summary.cell}`, "aria-label": label, title: label,
          dataset: { provider: p.name, tool: String(i) },
          text: cellText(summary),
        })));
    }
    body.append(row);
  });
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, body));

  const select = $("provider");
  select.replaceChildren(...providers.map((p) => el("option", { value: p.name, title: p.title, text: p.name })));
  setProvider(providers.some((p) => p.name === state.provider) ? state.provider : providers[0].name);
  const source = data.server ? `${data.label} (${data.server.name || "server"}, MCP ${data.server.protocol_version})` : data.label;
  $("summary").textContent = `${data.tools.length} tools × ${providers.length} providers — ${source} (${data.shape}), checked in ${data.elapsed_ms} ms${data.settings ? ` with the settings of ${data.settings}` : ""}`;
  $("source-errors").replaceChildren(...data.errors.map((e) => el("p", { class: "error", text: e })));
  $("breaking").replaceChildren(el("li", { class: "none", text: "Give the older version to compare." }));
  $("compare-status").textContent = "";
  $("results").hidden = false;
}

function setProvider(name) {
  state.provider = name;
  $("provider").value = name;
  const run = state.run;
  $("dl-tools").href = `api/transformed?${query({ run, provider: name })}`;
  $("dl-tools").setAttribute("download", `tools.${name}.json`);
  const targets = state.matrix.providers.find((p) => p.name === name).targets;
  const target = $("target");
  const keep = targets.includes(target.value) ? target.value : targets[0];
  target.replaceChildren(...targets.map((t) => el("option", { value: t, text: TARGET_LABEL[t] || t })));
  target.value = keep;
  setTarget();
  $("dl-json").href = `api/report?${query({ run, provider: name, format: "json" })}`;
  $("dl-json").setAttribute("download", `report.${name}.json`);
  $("dl-sarif").href = `api/report?${query({ run, provider: "all", format: "sarif" })}`;
  $("dl-sarif").setAttribute("download", "report.sarif");
}

const TARGET_LABEL = {
  "openai-chat": "OpenAI Chat Completions", "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages", gemini: "Gemini generateContent",
};

function setTarget() {
  const target = $("target").value;
  $("dl-request").href = `api/request?${query({ run: state.run, provider: state.provider, target })}`;
  $("dl-request").setAttribute("download", `request-tools.${target}.json`);
  $("dl-request").title = `The "tools" value of a ${TARGET_LABEL[target] || target} request, as transform --to ${target} writes it`;
}

async function copyTools() {
  const status = $("copy-status");
  try {
    await navigator.clipboard.writeText(await download($("dl-tools").getAttribute("href")));
    status.textContent = `Copied the tools for ${state.provider}`;
  } catch (error) {
    status.textContent = `Could not copy: ${error.message}`;
  }
}

// --- one cell ---------------------------------------------------------------------------

async function openCell(provider, index) {
  for (const old of document.querySelectorAll("#matrix button.selected")) old.classList.remove("selected");
  const button = document.querySelector(`#matrix button[data-provider="${CSS.escape(provider)}"][data-tool="${index}"]`);
  if (button) button.classList.add("selected");
  setProvider(provider);
  try {
    const cell = await api(`api/cell?${query({ run: state.run, provider, tool: index })}`);
    state.cell = cell;
    showCell(cell);
  } catch (error) {
    $("detail").hidden = false;
    $("detail-title").textContent = error.message;
  }
}

const EFFECT = {
  accepts: { equal: "accepts the same arguments", narrower: "accepts fewer arguments", wider: "accepts more arguments", changed: "accepts different arguments" },
  told: { kept: "the model is told the same", described: "moved into a description", lost: "the model is told less" },
};

function effectText(item) {
  return `${EFFECT.accepts[item.accepts] || item.accepts}; ${EFFECT.told[item.told] || item.told}`;
}

function ruleLink(code) {
  const link = el("button", { type: "button", class: "rule", title: `What ${code} means`, text: code });
  link.addEventListener("click", (event) => { event.stopPropagation(); showRule(code); });
  return link;
}

function showCell(cell) {
  const renamed = cell.transformed_name !== cell.tool ? ` → ${cell.transformed_name}` : "";
  $("detail-title").textContent = `${cell.tool}${renamed} for ${cell.provider}`;
  const verdict = {
    compatible: "accepted as published", fixable: "rejected as published; transform fixes it",
    "fixable-lossy": "rejected as published; transform fixes it with a loss", incompatible: "still rejected after transform",
  }[cell.cell];
  $("detail-sub").textContent = `${verdict} · ${cell.findings.length} findings · ${cell.changes.length} changes`;
  if (cell.request_error) $("detail-sub").textContent += ` · as one request: ${cell.request_error}`;

  const findings = $("findings");
  findings.replaceChildren();
  cell.findings.forEach((f, k) => {
    const effect = f.fix ? `${f.fix.safety} fix: ${f.fix.title} (${effectText(f.fix)})` : "no automatic fix";
    const item = el("li", { class: `finding ${f.severity}`, tabindex: "0", role: "button",
      "aria-pressed": "false", dataset: { pointer: f.pointer, index: String(k), scope: f.scope } },
      el("div", { class: "head" }, ruleLink(f.code), el("span", { class: `sev ${f.severity}`, text: f.severity }),
        el("code", { class: "path", text: f.scope === "tool" ? "(the tool)" : f.path })),
      el("div", { class: "msg" }, ...inline(f.message)),
      el("div", { class: "effect" }, ...inline(effect)));
    findings.append(item);
  });
  if (!cell.findings.length) findings.append(el("li", { class: "none", text: "Nothing to report." }));

  const changes = $("changes");
  changes.replaceChildren();
  cell.changes.forEach((c, k) => {
    changes.append(el("li", { class: `change ${c.safety}`, dataset: { index: String(k), pointer: c.pointer } },
      el("div", { class: "head" }, el("span", { class: "mark", text: String(k + 1) }), ruleLink(c.code),
        el("span", { class: `safety ${c.safety}`, text: c.safety }),
        el("code", { class: "path", text: c.scope === "tool" ? "(the tool)" : c.path })),
      el("div", { class: "msg" }, ...inline(c.description)),
      el("div", { class: "effect", text: effectText(c) })));
  });
  if (!cell.changes.length) changes.append(el("li", { class: "none", text: "None: the schema is sent as it is." }));

  const table = $("diff");
  const rows = document.createDocumentFragment();
  rows.append(el("tr", { class: "titles" }, el("th", { text: "original" }), el("th", { text: `transformed for ${cell.provider}` })));
  for (const row of cell.rows) {
    const left = el("td", { class: row.left === null ? "side empty" : `side k${kindClass(row.kind)}`, dataset: row.lp === null ? {} : { pointer: row.lp } });
    left.append(el("span", { class: "sign", text: row.left === null ? "" : signOf(row.kind, "left") }), el("span", { class: "text", text: row.left ?? "" }));
    const right = el("td", { class: row.right === null ? "side empty" : `side k${kindClass(row.kind)}`, dataset: row.rp === null ? {} : { pointer: row.rp } });
    right.append(el("span", { class: "sign", text: row.right === null ? "" : signOf(row.kind, "right") }), el("span", { class: "text", text: row.right ?? "" }));
    for (const k of row.marks) {
      const change = cell.changes[k];
      right.append(el("span", { class: `tag ${change.safety}`, title: `${change.code}: ${change.description}`, text: `${k + 1} ${change.code}` }));
    }
    rows.append(el("tr", { class: `row k${kindClass(row.kind)}` }, left, right));
  }
  table.replaceChildren(el("tbody", {}, rows));
  $("detail").hidden = false;
  $("detail").scrollIntoView({ block: "start", behavior: "instant" });
}

function kindClass(kind) {
  return { " ": "same", "-": "del", "+": "add", "~": "mod" }[kind] || "same";
}

function signOf(kind, side) {
  if (kind === "~") return "~";
  if (kind === "-" && side === "left") return "-";
  if (kind === "+" && side === "right") return "+";
  return " ";
}

function selectFinding(item) {
  for (const other of document.querySelectorAll("#findings .finding")) {
    other.classList.toggle("selected", other === item);
    other.setAttribute("aria-pressed", String(other === item));
  }
  for (const cell of document.querySelectorAll("#diff td.hl")) cell.classList.remove("hl", "hl-first");
  const pointer = item.dataset.pointer;
  const within = (p) => item.dataset.scope !== "tool" && (p === pointer || p.startsWith(`${pointer}/`));
  let first = null;
  for (const cell of document.querySelectorAll("#diff td.side[data-pointer]")) {
    if (within(cell.dataset.pointer) && cell.cellIndex === 0) {
      cell.classList.add("hl");
      if (!first) { first = cell; cell.classList.add("hl-first"); }
    }
  }
  if (first) first.scrollIntoView({ block: "center", behavior: "instant" });
}

// --- two versions: what the listing above breaks for callers of an older one -------------

const LEVEL = { breaking: "breaking", possibly: "possibly breaking", warning: "warning", info: "info" };

async function compareWith(text, label) {
  const status = $("compare-status");
  status.className = "status busy";
  status.textContent = "Comparing…";
  try {
    // the same report as `schema-compat breaking OLD NEW --json`, NEW the listing above
    const report = await api("api/breaking", { old: text, label, run: state.run });
    const s = report.summary;
    status.className = "status";
    status.textContent = `${s.breaking + s.removed} of ${s.tools_old} tools break callers`;
    $("breaking-title").textContent = `From ${report.old} to ${report.new}`;
    $("breaking").replaceChildren(...report.tools.map((tool) => el("li", { class: `tool ${tool.status}`, dataset: { tool: tool.name } },
      el("div", { class: "head" }, el("span", { class: "name", text: tool.name }), el("span", { class: "state", text: tool.status })),
      tool.findings.length ? el("ul", {}, ...tool.findings.map((f) => {
        const level = f.breaking ? (f.certain ? "breaking" : "possibly") : f.level;
        return el("li", { class: `evo ${level}` },
          el("div", { class: "head" }, el("code", { text: f.code }), el("span", { text: LEVEL[level] }),
            f.direction === "tool" ? null : el("code", { class: "path", text: f.path })),
          el("div", { class: "msg" }, ...inline(f.message)),
          "example" in f ? el("pre", { text: `e.g. ${JSON.stringify(f.example)}` }) : null);
      })) : null)));
  } catch (error) {
    status.className = "status error";
    status.textContent = error.message;
  }
}

function setupVersions() {
  $("compare").addEventListener("click", () => compareWith($("old-source").value, "<old>"));
  const open = async (file) => {
    $("old-source").value = await file.text();
    await compareWith($("old-source").value, file.name);
  };
  $("old-file").addEventListener("change", () => { if ($("old-file").files[0]) open($("old-file").files[0]); });
  const zone = $("old-drop");
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    if (event.dataTransfer.files[0]) open(event.dataTransfer.files[0]);
  });
}

// --- rule docs --------------------------------------------------------------------------

function inline(text) {
  // `code` and **bold**, as text nodes: the Markdown of rule pages, never HTML.
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    out.push(token.startsWith("`") ? el("code", { text: token.slice(1, -1) }) : el("strong", { text: token.slice(2, -2) }));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function renderMarkdown(markdown) {
  const root = document.createDocumentFragment();
  const lines = markdown.split("\n");
  let list = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) code.push(lines[i]);
      root.append(el("pre", {}, el("code", { text: code.join("\n") })));
      list = null;
    } else if (/^#+ /.test(line)) {
      // the page's own title (#) is the dialog's; ## and below become h3 and below
      const level = line.indexOf(" ");
      if (level > 1) root.append(el(`h${Math.min(level + 1, 6)}`, {}, ...inline(line.replace(/^#+ /, ""))));
      list = null;
    } else if (/^\s*- /.test(line)) {
      if (!list) { list = el("ul"); root.append(list); }
      list.append(el("li", {}, ...inline(line.replace(/^\s*- /, ""))));
    } else if (line.startsWith("> ")) {
      root.append(el("blockquote", {}, ...inline(line.slice(2))));
      list = null;
    } else if (line.trim() && !line.startsWith("<!--")) {
      root.append(el("p", {}, ...inline(line)));
      list = null;
    } else {
      list = null;
    }
  }
  return root;
}

async function showRule(code) {
  const dialog = $("rule-dialog");
  try {
    const page = await api(`api/rule?${query({ code })}`);
    $("rule-title").textContent = `${page.code} ${page.name}`;
    $("rule-body").replaceChildren(renderMarkdown(page.markdown));
  } catch (error) {
    $("rule-title").textContent = code;
    $("rule-body").replaceChildren(el("p", { class: "error", text: error.message }));
  }
  if (!dialog.open) dialog.showModal();
}

// --- wiring -----------------------------------------------------------------------------

function setupStatic() {
  // no server here: no live listings; the engine loads once, then every check is local
  document.querySelector(".live").hidden = true;
  // nor a comparison of two versions: its examples are checked with jsonschema, which the
  // page's Python does not carry (site-build/build_site.py)
  document.querySelector(".versions").hidden = true;
  document.querySelector(".input").classList.add("single");
  const status = $("input-status");
  status.className = "status busy";
  status.textContent = "Loading the engine (Pyodide)…";
  $("check").disabled = true;
  engine = loadEngine();
  engine.then(() => {
    status.className = "status";
    status.textContent = "Ready: everything runs in this page; nothing is sent anywhere.";
    $("check").disabled = false;
  }, (error) => {
    status.className = "status error";
    status.textContent = `The engine did not load: ${error.message}`;
  });
}

document.addEventListener("DOMContentLoaded", () => {
  setupInput();
  setupVersions();
  if (STATIC) setupStatic();
  else loadServers();
  document.querySelector(".downloads").addEventListener("click", (event) => {
    const link = event.target.closest("a.button");
    if (!link) return;
    event.preventDefault();
    saveLink(link);
  });
  $("list").addEventListener("click", listLive);
  $("provider").addEventListener("change", () => setProvider($("provider").value));
  $("target").addEventListener("change", setTarget);
  $("copy-tools").addEventListener("click", copyTools);
  $("rule-close").addEventListener("click", () => $("rule-dialog").close());
  $("matrix").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-provider]");
    if (button) openCell(button.dataset.provider, Number(button.dataset.tool));
  });
  const findings = $("findings");
  findings.addEventListener("click", (event) => {
    const item = event.target.closest(".finding");
    if (item) selectFinding(item);
  });
  findings.addEventListener("keydown", (event) => {
    const item = event.target.closest(".finding");
    if (item && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); selectFinding(item); }
  });
});
