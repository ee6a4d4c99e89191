import { Readable, Writable } from "node:stream";
import * as sdk from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type * as acp from "../../.test-package/package/v1/index.js";
import { type ClientOutput, expectFullScenario } from "./expect-scenario.js";
import { clientRun, Editor } from "./fixtures/scenario.js";
import { OUR_AGENT, OUR_CLIENT, run, SDK_AGENT, start, stopAll } from "./support.js";

afterEach(stopAll);

/** The official SDK's client, in this process, driving an agent process through the scenario. */
async function sdkClient(
  agentCommand: readonly string[],
): Promise<ClientOutput & { agentStderr: string }> {
  const agent = start(agentCommand);
  // Node types its web streams apart from the DOM's, which the SDK's signature names.
  const stream = sdk.ndJsonStream(
    Writable.toWeb(agent.child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(agent.child.stdout) as ReadableStream<Uint8Array>,
  );
  const editor = new Editor();
  const app = sdk
    .client({ name: "sdk-scenario-client" })
    // The SDK types `rawInput` as unknown (the schema gives it no type); our types say object.
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
  const transcript = await app.connectWith(stream, (cx) =>
    clientRun(
      {
        initialize: (params) => cx.request("initialize", params),
        newSession: (params) => cx.request("session/new", params),
        prompt: (params) => cx.request("session/prompt", params),
      },
      editor,
    ),
  );
  // The SDK does not end its output when it closes; an editor done with an agent ends its stdin.
  agent.child.stdin.end();
  return { transcript, agentExitCode: await agent.exited, agentStderr: agent.stderr() };
}

describe("interop with the official SDK (@agentclientprotocol/sdk), each side in its own process", {
  timeout: 30_000,
}, () => {
  it("our ClientSideConnection drives the SDK's agent through the whole scenario", async () => {
    const result = await run([...OUR_CLIENT, ...SDK_AGENT]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expectFullScenario(JSON.parse(result.stdout) as ClientOutput);
  });

  it("the SDK's client drives our AgentSideConnection through the whole scenario", async () => {
    const result = await sdkClient(OUR_AGENT);
    expect(result.agentStderr).toBe("");
    expectFullScenario(result);
  });

  it("both pairings produce the same transcript as ours with ours", async () => {
    const [ours, sdkAgent, sdkClientSide] = await Promise.all([
      run([...OUR_CLIENT, ...OUR_AGENT]),
      run([...OUR_CLIENT, ...SDK_AGENT]),
      sdkClient(OUR_AGENT),
    ]);
    const reference = (JSON.parse(ours.stdout) as ClientOutput).transcript;
    expect((JSON.parse(sdkAgent.stdout) as ClientOutput).transcript).toEqual(reference);
    expect(sdkClientSide.transcript).toEqual(reference);
  });
});
