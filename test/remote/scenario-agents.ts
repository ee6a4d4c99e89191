/**
 * The interop scenario's agents (test/stubs/fixtures/scenario.ts) on any message stream, in
 * this process: ours on the generated package's AgentSideConnection, and the official SDK's
 * app, as the remote servers' `connect` hands them a stream per client.
 */
import * as sdk from "@agentclientprotocol/sdk";
import type { MessageStream } from "../../.test-package/package/remote/index.js";
import { AgentSideConnection, type SessionUpdate } from "../../.test-package/package/v1/index.js";
import {
  agentTurn,
  type ClientCalls,
  INITIALIZE_RESPONSE,
  SESSION_ID,
} from "../stubs/fixtures/scenario.js";

export function ourScenarioAgent(stream: MessageStream): AgentSideConnection {
  let cancelTurn = () => {};
  return new AgentSideConnection((connection) => {
    const client = connection.client;
    return {
      initialize: () => INITIALIZE_RESPONSE,
      sessionNew: () => ({ sessionId: SESSION_ID }),
      sessionPrompt(params) {
        const cancelled = new Promise<void>((resolve) => {
          cancelTurn = resolve;
        });
        const calls = {
          update: (update: SessionUpdate) =>
            client.sessionUpdate({ sessionId: params.sessionId, update }),
          requestPermission: client.sessionRequestPermission,
          readTextFile: client.fsReadTextFile,
          writeTextFile: client.fsWriteTextFile,
          createTerminal: client.terminalCreate,
          terminalOutput: client.terminalOutput,
          waitForTerminalExit: client.terminalWaitForExit,
          releaseTerminal: client.terminalRelease,
        };
        return agentTurn(params, calls, cancelled);
      },
      sessionCancel: () => cancelTurn(),
    };
  }, stream);
}

/** The SDK's scenario agent: a fresh app per connection, as `createAgent` asks. */
export function sdkScenarioApp() {
  let cancelTurn = () => {};
  return sdk
    .agent({ name: "sdk-scenario-agent" })
    .onRequest(sdk.methods.agent.initialize, () => INITIALIZE_RESPONSE)
    .onRequest(sdk.methods.agent.session.new, () => ({ sessionId: SESSION_ID }))
    .onRequest(sdk.methods.agent.session.prompt, ({ params, client }) => {
      const cancelled = new Promise<void>((resolve) => {
        cancelTurn = resolve;
      });
      const calls: ClientCalls = {
        update: (update) =>
          client.notify("session/update", { sessionId: params.sessionId, update }),
        requestPermission: (p) => client.request("session/request_permission", p),
        readTextFile: (p) => client.request("fs/read_text_file", p),
        writeTextFile: (p) => client.request("fs/write_text_file", p),
        createTerminal: (p) => client.request("terminal/create", p),
        terminalOutput: (p) => client.request("terminal/output", p),
        waitForTerminalExit: (p) => client.request("terminal/wait_for_exit", p),
        releaseTerminal: (p) => client.request("terminal/release", p),
      };
      return agentTurn(params, calls, cancelled);
    })
    .onNotification(sdk.methods.agent.session.cancel, () => cancelTurn());
}
