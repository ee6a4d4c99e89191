import { createServer, type Server } from "node:http";
import * as sdk from "@agentclientprotocol/sdk";
import { createHttpStream as sdkHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import {
  createNodeHttpHandler as sdkNodeHttpHandler,
  createNodeWebSocketUpgradeHandler as sdkNodeUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer as SdkAcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { createWebSocketStream as sdkWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { serve } from "../../.test-package/package/node/index.js";
import {
  AcpServer,
  createHttpStream,
  createWebSocketStream,
  type MessageStream,
} from "../../.test-package/package/remote/index.js";
import type * as acp from "../../.test-package/package/v1/index.js";
import { ClientSideConnection } from "../../.test-package/package/v1/index.js";
import { expectFullScenario } from "../stubs/expect-scenario.js";
import { clientRun, Editor, type Transcript } from "../stubs/fixtures/scenario.js";
import { ourScenarioAgent, sdkScenarioApp } from "./scenario-agents.js";
import { closeAfter } from "./support.js";

/**
 * The remote transport against the official SDK 2.4.0's experimental one, both ways and over
 * both profiles: the whole interop scenario (a turn with permission, file and terminal calls
 * from the agent, a turn cancelled while a permission request is pending) must read the same
 * from the client's side whichever pair of implementations carries it.
 */

type Transport = "http" | "websocket";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The SDK's server (its AcpServer behind its Node adapters), serving its scenario agent. */
async function sdkServer(): Promise<string> {
  const server = new SdkAcpServer({ createAgent: () => sdkScenarioApp() });
  const wss = new WebSocketServer({ noServer: true });
  const http: Server = createServer(sdkNodeHttpHandler(server));
  http.on("upgrade", sdkNodeUpgradeHandler(server, wss));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    await server.close();
    wss.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  const address = http.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/acp`;
}

/** Our server (serve), serving our scenario agent. */
async function ourServer(): Promise<string> {
  const served = await serve(new AcpServer({ connect: (stream) => ourScenarioAgent(stream) }));
  closeAfter(served);
  return served.url;
}

/** Our ClientSideConnection through the scenario on one of our client streams. */
async function ourClient(url: string, transport: Transport): Promise<Transcript> {
  const stream: MessageStream =
    transport === "http" ? createHttpStream(url) : createWebSocketStream(url, { WebSocket });
  const editor = new Editor();
  const connection = new ClientSideConnection(
    (self) => ({
      sessionUpdate: (params) => editor.sessionUpdate(params),
      sessionRequestPermission: (params) =>
        editor.requestPermission(params, () =>
          self.agent.sessionCancel({ sessionId: params.sessionId }),
        ),
      fsReadTextFile: (params) => editor.readTextFile(params),
      fsWriteTextFile: (params) => editor.writeTextFile(params),
      terminalCreate: (params) => editor.createTerminal(params),
      terminalOutput: (params) => editor.terminalOutput(params),
      terminalWaitForExit: (params) => editor.waitForTerminalExit(params),
      terminalRelease: (params) => editor.releaseTerminal(params),
      terminalKill: (params) => editor.killTerminal(params),
    }),
    stream,
  );
  const { agent } = connection;
  try {
    return await clientRun(
      { initialize: agent.initialize, newSession: agent.sessionNew, prompt: agent.sessionPrompt },
      editor,
    );
  } finally {
    connection.close();
  }
}

/** The SDK's client app through the scenario on one of the SDK's client streams. */
async function sdkClient(url: string, transport: Transport): Promise<Transcript> {
  const stream = transport === "http" ? sdkHttpStream(url) : sdkWebSocketStream(url, { WebSocket });
  const editor = new Editor();
  const app = sdk
    .client({ name: "sdk-remote-client" })
    .onNotification(sdk.methods.client.session.update, ({ params }) =>
      editor.sessionUpdate(params as acp.SessionNotification),
    )
    .onRequest(sdk.methods.client.session.requestPermission, ({ params, agent: peer }) =>
      editor.requestPermission(params as acp.RequestPermissionRequest, () =>
        peer.notify("session/cancel", { sessionId: params.sessionId }),
      ),
    )
    .onRequest(sdk.methods.client.fs.readTextFile, ({ params }) => editor.readTextFile(params))
    .onRequest(sdk.methods.client.fs.writeTextFile, ({ params }) => editor.writeTextFile(params))
    .onRequest(sdk.methods.client.terminal.create, ({ params }) => editor.createTerminal(params))
    .onRequest(sdk.methods.client.terminal.output, ({ params }) => editor.terminalOutput(params))
    .onRequest(sdk.methods.client.terminal.waitForExit, ({ params }) =>
      editor.waitForTerminalExit(params),
    )
    .onRequest(sdk.methods.client.terminal.release, ({ params }) => editor.releaseTerminal(params));
  return app.connectWith(stream, (cx) =>
    clientRun(
      {
        initialize: (params) => cx.request("initialize", params),
        newSession: (params) => cx.request("session/new", params),
        prompt: (params) => cx.request("session/prompt", params),
      },
      editor,
    ),
  );
}

describe("interop with the official SDK 2.4.0's remote transport", { timeout: 30_000 }, () => {
  for (const transport of ["http", "websocket"] as const) {
    it(`our client drives the SDK's server and agent over ${transport}`, async () => {
      const transcript = await ourClient(await sdkServer(), transport);
      // No agent process here: the scenario's own checks, with the agent in this process.
      expectFullScenario({ transcript, agentExitCode: 0 });
    });

    it(`the SDK's client drives our server and agent over ${transport}`, async () => {
      const transcript = await sdkClient(await ourServer(), transport);
      expectFullScenario({ transcript, agentExitCode: 0 });
    });

    it(`every pairing reads the same over ${transport} as ours with ours`, async () => {
      const [ours, ourWithSdk, sdkWithOurs] = await Promise.all([
        ourServer().then((url) => ourClient(url, transport)),
        sdkServer().then((url) => ourClient(url, transport)),
        ourServer().then((url) => sdkClient(url, transport)),
      ]);
      expectFullScenario({ transcript: ours, agentExitCode: 0 });
      expect(ourWithSdk).toEqual(ours);
      expect(sdkWithOurs).toEqual(ours);
    });
  }
});
