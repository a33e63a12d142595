// Builds tests/data/agents/*.json: pre-v2 `_meta` recordings and the v2 updates that each agent's own
// v2 bridge renders from them, by running that bridge's code from the agent's npm package.
//
//   cd "$(mktemp -d)" && npm pack @agentclientprotocol/claude-agent-acp@0.101.0 @agentclientprotocol/codex-acp@2.6.0
//   for f in *.tgz; do mkdir "${f%.tgz}" && tar xzf "$f" -C "${f%.tgz}"; done
//   node tests/data/agents/render_fixtures.mjs CLAUDE_DIR/package CODEX_DIR/package
//
// claude-agent-acp ships its bridge as a module (dist/v2/terminal.js: V2Terminals). codex-acp ships one
// bundle whose entry point starts the agent, so the four functions of its bridge (src/AcpV2SessionUpdate.ts)
// are taken out of the bundle by name and evaluated on their own.
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [claudeDir, codexDir] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const version = (dir) => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version;
const b64 = (text) => Buffer.from(text, "utf8").toString("base64");

// --- claude-agent-acp: terminal_output is the whole output so far (a snapshot), deltas append.
const claudeV1 = [
  { sessionUpdate: "tool_call", toolCallId: "toolu_01", title: "Run tests", kind: "execute", status: "in_progress",
    rawInput: { command: "npm test" }, content: [{ type: "terminal", terminalId: "toolu_01" }],
    _meta: { terminal_info: { terminal_id: "toolu_01" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "toolu_01",
    _meta: { terminal_output: { terminal_id: "toolu_01", data: "> demo@1.0.0 test\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "toolu_01",
    _meta: { terminal_output: { terminal_id: "toolu_01",
      data: "> demo@1.0.0 test\r\n\x1b[32m✔\x1b[0m adds\r\nprogress  50%\rprogress 100%\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "toolu_01",
    _meta: { terminal_output_delta: { terminal_id: "toolu_01", data: "1 passing\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "toolu_01", status: "completed",
    _meta: { terminal_exit: { terminal_id: "toolu_01", exit_code: 0, signal: null } } },
];
const { V2Terminals } = await import(pathToFileURL(path.join(claudeDir, "dist/v2/terminal.js")).href);
const terminals = new V2Terminals();
const claudeV2 = [];
for (const report of claudeV1) {
  const { terminal, report: rest } = terminals.split("sess_c", structuredClone(report));
  claudeV2.push(...terminal);
  if (rest) claudeV2.push(rest);
}

// --- codex-acp: terminal_output (or _delta) appends; sent with terminal_exit it is the final snapshot.
const codexV1 = [
  { sessionUpdate: "tool_call", toolCallId: "call_9", title: "cargo test", kind: "execute", status: "in_progress",
    rawInput: { command: "bash -lc 'cargo test'" }, content: [{ type: "terminal", terminalId: "call_9" }],
    _meta: { terminal_info: { terminal_id: "call_9", cwd: "/work/demo" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "call_9",
    _meta: { terminal_output: { terminal_id: "call_9", data: "   Compiling demo v0.1.0\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "call_9",
    _meta: { terminal_output: { terminal_id: "call_9", data: "running 2 tests\r\ntest a ... \x1b[32mok\x1b[0m\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "call_9",
    _meta: { terminal_output_delta: { terminal_id: "call_9", data: "test b ... \x1b[31mFAILED\x1b[0m\r\n" } } },
  { sessionUpdate: "tool_call_update", toolCallId: "call_9", status: "failed",
    _meta: { terminal_exit: { terminal_id: "call_9", exit_code: 101, signal: null } } },
];
const bundle = readFileSync(path.join(codexDir, "dist/index.js"), "utf8");
function extract(name) {
  const start = bundle.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`${name} not found in the codex-acp bundle`);
  let depth = 0;
  for (let i = bundle.indexOf("{", start); i < bundle.length; i++) {
    if (bundle[i] === "{") depth++;
    else if (bundle[i] === "}" && --depth === 0) return bundle.slice(start, i + 1);
  }
  throw new Error(`${name} does not end`);
}
const names = ["stripShellPrefix", "terminalMetaRecord", "base643", "toV2TerminalUpdates"];
const RequestError = { internalError: (_data, message) => new Error(message) };
const toV2TerminalUpdates = new Function("path2", "RequestError",
  `${names.map(extract).join("\n")}\nreturn toV2TerminalUpdates;`)(path, RequestError);
const KEYS = ["terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit"];
const codexV2 = [];
for (const update of codexV1) {  // as toV2SessionUpdates does
  const { _meta, ...toolCall } = structuredClone(update);
  const { terminal_info, terminal_output, terminal_output_delta, terminal_exit } = _meta;
  codexV2.push(...toV2TerminalUpdates(
    { info: terminal_info, output: terminal_output ?? terminal_output_delta, exit: terminal_exit }, toolCall.rawInput));
  const { sessionUpdate, toolCallId, ...fields } = toolCall;
  if (Object.keys(fields).length) codexV2.push(toolCall);
}

for (const [agent, dir, v1, v2] of [["@agentclientprotocol/claude-agent-acp", claudeDir, claudeV1, claudeV2],
                                    ["@agentclientprotocol/codex-acp", codexDir, codexV1, codexV2]]) {
  const file = path.join(here, `${agent.split("/")[1]}.json`);
  writeFileSync(file, JSON.stringify({ agent, version: version(dir), v1, v2 }, null, 1) + "\n");
  console.log(`wrote ${file}: ${v1.length} v1 updates, ${v2.length} v2 updates`);
}
