#!/usr/bin/env node
// Records bench/corpus/exchange.ndjson: the JSON-RPC lines of one realistic ACP v1 exchange
// between a tiny agent and a tiny client built with the official SDK (@agentclientprotocol/sdk),
// connected in-process through ndJsonStream. Recording a real exchange (rather than writing
// messages by hand) means every line is something the official implementation actually sends
// and accepts, so the benchmark compares both validators on traffic both consider normal.
//
// The recorder is not run by `npm run bench`; the corpus is committed and reviewed. Re-run it
// after an SDK bump: `node bench/record.mjs`. `npm run bench` checks that the corpus still
// covers every stable method and every session/update kind of the schema, so a schema bump that
// adds one shows up there as a coverage failure instead of going unmeasured.
//
// Everything here is deterministic (fixed ids, fixed timestamps, no clocks, no randomness), so
// re-recording with the same SDK yields the same bytes.

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { agent, client, ndJsonStream } from "@agentclientprotocol/sdk";

const OUT = fileURLToPath(new URL("./corpus/exchange.ndjson", import.meta.url));
const CWD = "/home/dev/projects/todo-api";
const SESSION = "sess_01HZX3Q4B5N6M7K8J9H0G1F2E3";
const OLD_SESSION = "sess_01HZW0A1B2C3D4E5F6G7H8J9K0";

/** @type {{ from: "client" | "agent", message: unknown }[]} */
const lines = [];

/**
 * A byte pipe that records each complete NDJSON line written into it, attributed to the side
 * that wrote it. Lines are re-parsed so the corpus stores structured JSON (one object per line)
 * rather than escaped strings; the SDK serialises with plain JSON.stringify, so
 * JSON.stringify(message) reproduces the wire bytes exactly.
 * @param {"client" | "agent"} from
 * @returns {TransformStream<Uint8Array, Uint8Array>}
 */
function tappedPipe(from) {
  const decoder = new TextDecoder();
  let pending = "";
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line) lines.push({ from, message: JSON.parse(line) });
        newline = pending.indexOf("\n");
      }
      controller.enqueue(chunk);
    },
  });
}

/** @type {import("@agentclientprotocol/sdk").SessionModeState} */
const MODES = {
  currentModeId: "ask",
  availableModes: [
    { id: "ask", name: "Ask", description: "Request permission before making any changes" },
    { id: "code", name: "Code", description: "Edit files and run commands without asking" },
    { id: "architect", name: "Architect", description: "Plan changes without editing files" },
  ],
};

/** @type {import("@agentclientprotocol/sdk").SessionConfigOption[]} */
const CONFIG_OPTIONS = [
  {
    id: "model",
    name: "Model",
    description: "The language model used for this session",
    category: "model",
    type: "select",
    currentValue: "sonnet",
    options: [
      { value: "sonnet", name: "Sonnet", description: "Balanced speed and quality" },
      { value: "opus", name: "Opus", description: "Most capable, slower" },
      { value: "haiku", name: "Haiku", description: "Fastest" },
    ],
  },
  {
    id: "thinking",
    name: "Extended thinking",
    category: "thought_level",
    type: "select",
    currentValue: "medium",
    options: [
      {
        group: "budget",
        name: "Thinking budget",
        options: [
          { value: "low", name: "Low" },
          { value: "medium", name: "Medium" },
          { value: "high", name: "High" },
        ],
      },
    ],
  },
];

const SOURCE_BEFORE = `import { Router } from "express";
import { db } from "./db.js";

export const todos = Router();

todos.get("/:id", async (req, res) => {
  const todo = await db.todo.findUnique({ where: { id: req.params.id } });
  res.json(todo);
});
`;

const SOURCE_AFTER = `import { Router } from "express";
import { db } from "./db.js";

export const todos = Router();

todos.get("/:id", async (req, res) => {
  const todo = await db.todo.findUnique({ where: { id: req.params.id } });
  if (!todo) {
    res.status(404).json({ error: "todo not found" });
    return;
  }
  res.json(todo);
});
`;

const TEST_OUTPUT = ` RUN  v3.2.4 /home/dev/projects/todo-api

 ✓ test/todos.test.ts (4 tests) 38ms
   ✓ GET /todos/:id > returns the todo
   ✓ GET /todos/:id > returns 404 for a missing todo
   ✓ POST /todos > creates a todo
   ✓ DELETE /todos/:id > deletes a todo

 Test Files  1 passed (1)
      Tests  4 passed (4)
`;

/** The agent side: answers every agent method and, during a prompt, calls every client method. */
function buildAgent() {
  return agent({ name: "bench-agent" })
    .onRequest("initialize", () => ({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: true, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: {
          list: {},
          delete: {},
          resume: {},
          close: {},
          additionalDirectories: {},
        },
        auth: { logout: {} },
      },
      authMethods: [
        { id: "oauth", name: "Log in with your account", description: "Opens a browser window" },
        {
          type: "terminal",
          id: "api-key",
          name: "API key",
          description: "Paste an API key in a terminal",
          args: ["--login"],
          env: { BENCH_AGENT_LOGIN: "1" },
        },
      ],
      agentInfo: { name: "bench-agent", title: "Bench Agent", version: "0.3.1" },
    }))
    .onRequest("authenticate", () => ({}))
    .onRequest("logout", () => ({}))
    .onRequest("session/new", () => ({
      sessionId: SESSION,
      modes: MODES,
      configOptions: CONFIG_OPTIONS,
    }))
    .onRequest("session/load", async ({ params, client: peer }) => {
      // Loading replays the conversation as session/update notifications before answering.
      const replay = [
        {
          sessionUpdate: "user_message_chunk",
          messageId: "msg_0001",
          content: { type: "text", text: "What does the todos router do?" },
        },
        {
          sessionUpdate: "agent_message_chunk",
          messageId: "msg_0002",
          content: {
            type: "text",
            text: "It exposes `GET /todos/:id`, which looks the todo up by id and returns it.",
          },
        },
      ];
      for (const update of replay) {
        await peer.notify("session/update", { sessionId: params.sessionId, update });
      }
      return { modes: MODES, configOptions: CONFIG_OPTIONS };
    })
    .onRequest("session/list", () => ({
      sessions: [
        {
          sessionId: SESSION,
          cwd: CWD,
          title: "Return 404 for missing todos",
          updatedAt: "2025-06-02T09:41:07Z",
        },
        {
          sessionId: OLD_SESSION,
          cwd: CWD,
          additionalDirectories: ["/home/dev/projects/shared-types"],
          title: "Explain the todos router",
          updatedAt: "2025-06-01T17:12:55Z",
          _meta: { "bench.example/messages": 2 },
        },
      ],
      nextCursor: "c2Vzc18wMUhaVzBBMUIyQzNENEU1RjZHN0g4SjlLMA",
    }))
    .onRequest("session/delete", () => ({}))
    .onRequest("session/resume", () => ({ modes: MODES, configOptions: CONFIG_OPTIONS }))
    .onRequest("session/close", () => ({}))
    .onRequest("session/set_mode", () => ({}))
    .onRequest("session/set_config_option", ({ params }) => ({
      configOptions: CONFIG_OPTIONS.map((option) =>
        option.id === params.configId
          ? /** @type {import("@agentclientprotocol/sdk").SessionConfigOption} */ ({
              ...option,
              currentValue: params.value,
            })
          : option,
      ),
    }))
    .onNotification("session/cancel", () => {})
    .onRequest("session/prompt", ({ params, client: peer, signal }) => {
      const text = params.prompt.find((block) => block.type === "text")?.text ?? "";
      if (text.startsWith("Also")) return waitForCancel(signal);
      return promptTurn(params.sessionId, peer);
    });
}

/**
 * A turn the client cancels: the agent reports progress, then stops when cancelled.
 * @param {AbortSignal} signal
 * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse>}
 */
async function waitForCancel(signal) {
  await new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener("abort", () => resolve(undefined), { once: true });
  });
  return { stopReason: "cancelled" };
}

/**
 * One prompt turn that exercises every session/update kind and every client method.
 * @param {string} sessionId
 * @param {import("@agentclientprotocol/sdk").AgentContext} peer
 * @returns {Promise<import("@agentclientprotocol/sdk").PromptResponse>}
 */
async function promptTurn(sessionId, peer) {
  const update = (/** @type {import("@agentclientprotocol/sdk").SessionUpdate} */ u) =>
    peer.notify("session/update", { sessionId, update: u });

  await update({
    sessionUpdate: "available_commands_update",
    availableCommands: [
      { name: "web", description: "Search the web", input: { hint: "query to search for" } },
      { name: "test", description: "Run the project's tests" },
      { name: "compact", description: "Summarise the conversation so far", input: null },
    ],
  });
  await update({
    sessionUpdate: "agent_thought_chunk",
    messageId: "msg_0004",
    content: {
      type: "text",
      text: "The handler returns `null` with status 200 when the lookup misses. I should read the file first.",
    },
  });
  await update({
    sessionUpdate: "plan",
    entries: [
      { content: "Read src/routes/todos.ts", priority: "high", status: "in_progress" },
      { content: "Return 404 when the todo does not exist", priority: "high", status: "pending" },
      { content: "Run the test suite", priority: "medium", status: "pending" },
    ],
  });
  await update({
    sessionUpdate: "tool_call",
    toolCallId: "call_read_1",
    title: "Read src/routes/todos.ts",
    kind: "read",
    status: "pending",
    locations: [{ path: `${CWD}/src/routes/todos.ts` }],
    rawInput: { path: `${CWD}/src/routes/todos.ts` },
  });
  const file = await peer.request("fs/read_text_file", {
    sessionId,
    path: `${CWD}/src/routes/todos.ts`,
    line: 1,
    limit: 200,
  });
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId: "call_read_1",
    status: "completed",
    content: [
      {
        type: "content",
        content: { type: "text", text: `\`\`\`ts\n${file.content}\`\`\`` },
      },
    ],
  });

  await update({
    sessionUpdate: "tool_call",
    toolCallId: "call_edit_2",
    title: "Edit src/routes/todos.ts",
    kind: "edit",
    status: "pending",
    locations: [{ path: `${CWD}/src/routes/todos.ts`, line: 7 }],
    content: [
      {
        type: "diff",
        path: `${CWD}/src/routes/todos.ts`,
        oldText: SOURCE_BEFORE,
        newText: SOURCE_AFTER,
      },
    ],
  });
  const permission = await peer.request("session/request_permission", {
    sessionId,
    toolCall: {
      toolCallId: "call_edit_2",
      title: "Edit src/routes/todos.ts",
      kind: "edit",
      status: "pending",
    },
    options: [
      { optionId: "allow-once", name: "Allow", kind: "allow_once" },
      { optionId: "allow-always", name: "Always allow edits", kind: "allow_always" },
      { optionId: "reject-once", name: "Reject", kind: "reject_once" },
      { optionId: "reject-always", name: "Never allow edits", kind: "reject_always" },
    ],
  });
  if (permission.outcome.outcome !== "selected") return { stopReason: "cancelled" };
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId: "call_edit_2",
    status: "in_progress",
  });
  await peer.request("fs/write_text_file", {
    sessionId,
    path: `${CWD}/src/routes/todos.ts`,
    content: SOURCE_AFTER,
  });
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId: "call_edit_2",
    status: "completed",
  });

  await update({
    sessionUpdate: "current_mode_update",
    currentModeId: "code",
  });
  await update({
    sessionUpdate: "tool_call",
    toolCallId: "call_test_3",
    title: "npm test",
    kind: "execute",
    status: "in_progress",
    rawInput: { command: "npm", args: ["test", "--", "--run"] },
  });
  const { terminalId } = await peer.request("terminal/create", {
    sessionId,
    command: "npm",
    args: ["test", "--", "--run"],
    env: [
      { name: "CI", value: "1" },
      { name: "FORCE_COLOR", value: "0" },
    ],
    cwd: CWD,
    outputByteLimit: 1048576,
  });
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId: "call_test_3",
    content: [{ type: "terminal", terminalId }],
  });
  await peer.request("terminal/output", { sessionId, terminalId });
  await peer.request("terminal/wait_for_exit", { sessionId, terminalId });
  await peer.request("terminal/release", { sessionId, terminalId });
  await update({
    sessionUpdate: "tool_call_update",
    toolCallId: "call_test_3",
    status: "completed",
    rawOutput: { exitCode: 0, passed: 4, failed: 0 },
  });

  // A second terminal that hangs and gets killed, so terminal/kill is part of the exchange.
  const watcher = await peer.request("terminal/create", {
    sessionId,
    command: "npm",
    args: ["run", "dev"],
    cwd: CWD,
  });
  await peer.request("terminal/kill", { sessionId, terminalId: watcher.terminalId });
  await peer.request("terminal/release", { sessionId, terminalId: watcher.terminalId });

  await peer.request("elicitation/create", {
    sessionId,
    toolCallId: "call_test_3",
    mode: "form",
    message: "The dev server needs a port. Which one should it use?",
    requestedSchema: {
      type: "object",
      title: "Dev server",
      properties: {
        port: { type: "integer", title: "Port", minimum: 1024, maximum: 65535, default: 3000 },
        host: { type: "string", title: "Host", format: "uri", default: "http://localhost" },
        open: { type: "boolean", title: "Open a browser", default: false },
        ratio: { type: "number", title: "Sampling ratio", minimum: 0, maximum: 1 },
        features: {
          type: "array",
          title: "Features",
          items: { type: "string", enum: ["hmr", "sourcemaps", "overlay"] },
          default: ["hmr"],
        },
        env: {
          type: "string",
          title: "Environment",
          oneOf: [
            { const: "development", title: "Development" },
            { const: "staging", title: "Staging", description: "Uses the staging database" },
          ],
        },
      },
      required: ["port"],
    },
  });
  await peer.request("elicitation/create", {
    sessionId,
    mode: "url",
    message: "Sign in to the package registry to publish",
    elicitationId: "elic_7Q2",
    url: "https://registry.example.com/device?code=QWER-7Q2",
  });
  await peer.notify("elicitation/complete", { elicitationId: "elic_7Q2" });

  await update({
    sessionUpdate: "plan",
    entries: [
      { content: "Read src/routes/todos.ts", priority: "high", status: "completed" },
      { content: "Return 404 when the todo does not exist", priority: "high", status: "completed" },
      { content: "Run the test suite", priority: "medium", status: "completed" },
    ],
  });
  await update({
    sessionUpdate: "agent_message_chunk",
    messageId: "msg_0005",
    content: {
      type: "text",
      text: '`GET /todos/:id` now answers **404** with `{ error: "todo not found" }` when the id is unknown.',
      annotations: { audience: ["user"], priority: 0.8 },
    },
  });
  await update({
    sessionUpdate: "agent_message_chunk",
    messageId: "msg_0005",
    content: {
      type: "resource_link",
      name: "todos.ts",
      uri: `file://${CWD}/src/routes/todos.ts`,
      mimeType: "text/x-typescript",
      title: "src/routes/todos.ts",
      size: SOURCE_AFTER.length,
    },
  });
  await update({
    sessionUpdate: "agent_message_chunk",
    messageId: "msg_0005",
    content: {
      type: "image",
      mimeType: "image/png",
      data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    },
  });
  await update({
    sessionUpdate: "agent_message_chunk",
    messageId: "msg_0005",
    content: {
      type: "audio",
      mimeType: "audio/wav",
      data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=",
    },
  });
  await update({
    sessionUpdate: "agent_message_chunk",
    messageId: "msg_0005",
    content: {
      type: "resource",
      resource: {
        uri: `file://${CWD}/test/output.txt`,
        mimeType: "text/plain",
        text: TEST_OUTPUT,
      },
    },
  });
  await update({
    sessionUpdate: "session_info_update",
    title: "Return 404 for missing todos",
    updatedAt: "2025-06-02T09:41:07Z",
  });
  await update({
    sessionUpdate: "usage_update",
    used: 48213,
    size: 200000,
    cost: { amount: 0.1843, currency: "USD" },
  });
  await update({
    sessionUpdate: "notice",
    severity: "warning",
    title: "Context window 75% full",
    description: "Older turns will be summarised soon.",
  });
  await update({
    sessionUpdate: "compaction_update",
    compactionId: "cmp_1",
    status: "in_progress",
  });
  await update({
    sessionUpdate: "compaction_summary_chunk",
    compactionId: "cmp_1",
    content: {
      type: "text",
      text: "The user asked for missing todos to return 404; the handler was changed and tests pass.",
    },
  });
  await update({
    sessionUpdate: "compaction_update",
    compactionId: "cmp_1",
    status: "completed",
    summary: [
      {
        type: "text",
        text: "Changed GET /todos/:id to return 404 for unknown ids; 4 tests pass.",
      },
    ],
  });
  await update({
    sessionUpdate: "config_option_update",
    configOptions: CONFIG_OPTIONS.map((option) =>
      option.id === "model"
        ? /** @type {import("@agentclientprotocol/sdk").SessionConfigOption} */ ({
            ...option,
            currentValue: "opus",
          })
        : option,
    ),
  });
  return { stopReason: "end_turn" };
}

/** The client side: answers every client method the agent calls. */
function buildClient() {
  return client({ name: "bench-client" })
    .onRequest("session/request_permission", ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0]?.optionId ?? "" },
    }))
    .onRequest("fs/read_text_file", () => ({ content: SOURCE_BEFORE }))
    .onRequest("fs/write_text_file", () => ({}))
    .onRequest("terminal/create", ({ params }) => ({
      terminalId: params.args?.includes("dev") ? "term_2" : "term_1",
    }))
    .onRequest("terminal/output", () => ({
      output: TEST_OUTPUT,
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    }))
    .onRequest("terminal/wait_for_exit", () => ({ exitCode: 0, signal: null }))
    .onRequest("terminal/release", () => ({}))
    .onRequest("terminal/kill", () => ({}))
    .onRequest("elicitation/create", ({ params }) =>
      params.mode === "form"
        ? {
            action: "accept",
            content: {
              port: 5173,
              host: "http://localhost",
              open: false,
              ratio: 0.25,
              features: ["hmr", "overlay"],
              env: "development",
            },
          }
        : { action: "accept" },
    )
    .onNotification("session/update", () => {})
    .onNotification("elicitation/complete", () => {});
}

/**
 * The client's side of the session: every agent method, in a plausible order.
 * @param {import("@agentclientprotocol/sdk").ClientContext} ctx
 */
async function clientWorkflow(ctx) {
  await ctx.request("initialize", {
    protocolVersion: 1,
    clientCapabilities: {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
    },
    clientInfo: { name: "bench-editor", title: "Bench Editor", version: "1.94.2" },
  });
  await ctx.request("authenticate", { methodId: "oauth" });
  await ctx.request("session/list", { cwd: CWD });
  await ctx.request("session/load", { sessionId: OLD_SESSION, cwd: CWD, mcpServers: [] });
  await ctx.request("session/new", {
    cwd: CWD,
    additionalDirectories: ["/home/dev/projects/shared-types"],
    mcpServers: [
      {
        name: "filesystem",
        command: "/usr/local/bin/mcp-server-filesystem",
        args: ["--root", CWD],
        env: [{ name: "LOG_LEVEL", value: "warn" }],
      },
      {
        type: "http",
        name: "issues",
        url: "https://mcp.example.com/issues",
        headers: [{ name: "Authorization", value: "Bearer redacted" }],
      },
    ],
  });
  await ctx.request("session/set_mode", { sessionId: SESSION, modeId: "code" });
  await ctx.request("session/set_config_option", {
    sessionId: SESSION,
    configId: "model",
    value: "opus",
  });
  await ctx.request("session/prompt", {
    sessionId: SESSION,
    prompt: [
      {
        type: "text",
        text: "GET /todos/:id returns 200 with null for unknown ids. Make it return 404 and run the tests.",
      },
      {
        type: "resource",
        resource: {
          uri: `file://${CWD}/src/routes/todos.ts`,
          mimeType: "text/x-typescript",
          text: SOURCE_BEFORE,
        },
      },
      {
        type: "resource_link",
        uri: `file://${CWD}/test/todos.test.ts`,
        name: "todos.test.ts",
        mimeType: "text/x-typescript",
      },
      {
        type: "image",
        mimeType: "image/png",
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        annotations: { audience: ["assistant"], lastModified: "2025-06-02T09:30:00Z" },
      },
    ],
  });

  // A second turn the user cancels: session/cancel for the session, $/cancel_request for the call.
  const abort = new AbortController();
  const cancelled = ctx.request(
    "session/prompt",
    { sessionId: SESSION, prompt: [{ type: "text", text: "Also add a test for DELETE." }] },
    { cancellationSignal: abort.signal },
  );
  await ctx.notify("session/cancel", { sessionId: SESSION });
  abort.abort();
  await cancelled.catch(() => undefined);

  await ctx.request("session/resume", { sessionId: OLD_SESSION, cwd: CWD, mcpServers: [] });
  await ctx.request("session/close", { sessionId: OLD_SESSION });
  await ctx.request("session/delete", { sessionId: OLD_SESSION });
  await ctx.request("logout", {});
}

const c2a = tappedPipe("client");
const a2c = tappedPipe("agent");
const agentConnection = buildAgent().connect(ndJsonStream(a2c.writable, c2a.readable));
await buildClient().connectWith(ndJsonStream(c2a.writable, a2c.readable), clientWorkflow);
agentConnection.close();

writeFileSync(OUT, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
console.log(`recorded ${lines.length} messages into ${OUT}`);
