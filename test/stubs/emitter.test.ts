import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitConnection } from "../../generator/emit/connection.js";
import { emitContext } from "../../generator/emit/contexts.js";
import { InputError } from "../../generator/errors.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import type { SurfaceModel } from "../../generator/model/protocol.js";
import { surfaceSymbols } from "../../generator/symbols/table.js";
import { BASELINE_METHODS, handlerName } from "../support/protocol.js";
import { HISTORY_DIR, RELEASES_DIR, SCHEMA_DIR } from "../support/run.js";
import { methodMaps, SURFACES, schemaOf } from "../support/surfaces.js";

function surfaces(dir: string): SurfaceModel[] {
  return buildModel(loadSchemaDir(dir, dir, new Diagnostics())).surfaces;
}

async function emitted(surface: SurfaceModel): Promise<{ js: string; dts: string }> {
  const files = emitConnection(
    await emitContext(surface, surfaceSymbols(surface), new Diagnostics()),
  );
  expect(files.map((f) => f.path)).toEqual([
    `${surface.id}/connection.js`,
    `${surface.id}/connection.d.ts`,
  ]);
  return { js: files[0]?.content ?? "", dts: files[1]?.content ?? "" };
}

/** The members of one interface in a .d.ts, as `name?(params: T.Type` prefixes. */
/**
 * The handlers of `iface` in connection.d.ts, as `name(Params)`. A handler interface may be
 * generic (`Agent<Strict>`), its params then `Strict extends true ? T.X : R.X`.
 */
function members(dts: string, iface: string): string[] {
  const body = dts.split(new RegExp(`export interface ${iface}[ <]`))[1]?.split("\n}\n")[0] ?? "";
  return [...body.matchAll(/^ {2}(\w+\??)\(params: (?:Strict extends true \? )?T\.(\w+)/gm)].map(
    (m) => `${m[1]}(${m[2]})`,
  );
}

describe("emitConnection", () => {
  it("imports the runtime at the surface's depth and only validators the methods use", async () => {
    const [stable, unstable] = surfaces(SCHEMA_DIR);
    if (!stable || !unstable) throw new Error("expected the vendored surfaces");
    // JavaScript from the runtime's one bundled module, declarations from the module's own file.
    expect((await emitted(stable)).js).toContain(
      'import { SideConnection } from "../runtime/index.js"',
    );
    expect((await emitted(unstable)).js).toContain(
      'import { SideConnection } from "../../runtime/index.js"',
    );
    expect((await emitted(stable)).dts).toContain(
      'import { SideConnection } from "../runtime/side-connection.js"',
    );
    expect((await emitted(unstable)).dts).toContain(
      'import { SideConnection } from "../../runtime/side-connection.js"',
    );
    const imported =
      (await emitted(stable)).js
        .match(/^import \{ (.*) \} from "\.\/validators\.js";$/m)?.[1]
        ?.split(", ") ?? [];
    const used = stable.methods
      .flatMap((m) => (m.result ? [m.params, m.result] : [m.params]))
      .map((key) => `v${key}`);
    expect(new Set(imported)).toEqual(new Set(used));
  });

  it("splits mcp/message by serving side when its request and notification have different x-sides (SDK 2.4.0)", async () => {
    const unstable = surfaces(`${RELEASES_DIR}/2.4.0`).find((s) => s.id === "v1/unstable");
    if (!unstable) throw new Error("expected v1/unstable in the 2.4.0 fixture");
    const { dts } = await emitted(unstable);
    expect(members(dts, "Agent")).toContain("mcpMessage?(MessageMcpNotification)");
    expect(members(dts, "Client")).toContain("mcpMessage?(MessageMcpRequest)");
    // Proxy methods belong to neither role: the proxy chain's roles serve and call them.
    for (const iface of ["Agent", "Client", "RemoteAgent", "RemoteClient"])
      expect(
        members(dts, iface).filter((m) => /^proxy/i.test(m)),
        iface,
      ).toEqual([]);
    expect(members(dts, "Proxy")).toEqual(["proxyInitialize?(InitializeProxyRequest)"]);
    expect(members(dts, "Conductor")).toEqual([
      "proxySuccessor(ProxySuccessorRequest)",
      "proxySuccessorNotification(ProxySuccessorNotification)",
    ]);
    expect(members(dts, "RemoteProxy").sort()).toEqual([
      "proxyInitialize(InitializeProxyRequest)",
      "proxySuccessor(ProxySuccessorRequest)",
      "proxySuccessorNotification(ProxySuccessorNotification)",
    ]);
  });

  it("gives both sides both handlers when x-side is `both` (upstream 788fdeda's unstable schema)", async () => {
    const unstable = surfaces(join(HISTORY_DIR, "788fdeda")).find((s) => s.id === "v1/unstable");
    const { dts } = await emitted(unstable as SurfaceModel);
    for (const iface of ["Agent", "Client", "RemoteAgent", "RemoteClient"]) {
      const names = members(dts, iface).map((m) => m.replace("?", ""));
      expect(names, iface).toEqual(
        expect.arrayContaining([
          "mcpMessage(MessageMcpRequest)",
          "mcpMessageNotification(MessageMcpNotification)",
        ]),
      );
    }
  });

  it("makes exactly the protocol's baseline methods required, on every surface", async () => {
    for (const surface of surfaces(SCHEMA_DIR)) {
      const maps = methodMaps(
        schemaOf(SURFACES.find((s) => s.id === surface.id) as (typeof SURFACES)[number]),
      );
      const { dts } = await emitted(surface);
      const required = (iface: string) =>
        members(dts, iface)
          .filter((m) => !m.includes("?"))
          .map((m) => m.replace(/\(.*/, ""))
          .sort();
      const baseline = (methods: Record<string, string>, wires: readonly string[]) =>
        Object.entries(methods)
          .filter(([, wire]) => wires.includes(wire))
          .map(([key]) => handlerName(key))
          .sort();
      expect(required("Agent"), surface.id).toEqual(
        baseline(maps.agent ?? {}, BASELINE_METHODS.agent),
      );
      expect(required("Client"), surface.id).toEqual(
        baseline(maps.client ?? {}, BASELINE_METHODS.client),
      );
      expect(required("Agent").length + required("Client").length).toBe(
        BASELINE_METHODS.agent.length + BASELINE_METHODS.client.length,
      );
    }
  });

  it("refuses a definition named like one of its exports", () => {
    const [stable] = surfaces(SCHEMA_DIR);
    if (!stable) throw new Error("expected the vendored surfaces");
    const clash = {
      ...stable,
      definitions: [
        ...stable.definitions,
        {
          ...(stable.definitions[0] as SurfaceModel["definitions"][number]),
          key: "RemoteAgent",
        },
      ],
    };
    expect(() => surfaceSymbols(clash)).toThrow(InputError);
    expect(() => surfaceSymbols(clash)).toThrow(
      /\$defs\/RemoteAgent: definition name "RemoteAgent" collides/,
    );
  });
});
