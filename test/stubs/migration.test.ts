import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { SURFACES, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * MIGRATING.md, checked against the SDK 1.x declarations themselves (the npm alias
 * @agentclientprotocol/sdk-1, its last 1.x release): every handler of its `Agent` and
 * `Client` interfaces and every call of its `AgentSideConnection` / `ClientSideConnection`
 * has a row naming it, on the method its params type belongs to in the schema, beside the
 * handler name our package really has.
 */

const require = createRequire(import.meta.url);
// Its exports map has no ./package.json: resolve the entry point, then walk up to the package.
const sdkDir = join(dirname(require.resolve("@agentclientprotocol/sdk-1")), "..");
const sdkVersion = (
  JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")) as { version: string }
).version;
const declarations = readFileSync(join(sdkDir, "dist", "acp.d.ts"), "utf8");
const guide = readFileSync(join(TEST_PACKAGE, "MIGRATING.md"), "utf8");
// The widest v1 surface: the guide's rows come from it.
const widest = SURFACES.find((s) => s.version === 1 && !s.stable);
if (!widest) throw new Error("no unstable v1 surface in schema/");
const schema = schemaOf(widest) as { $defs: Record<string, { "x-method"?: string }> };

/** `name(params: schema.Type` members of one interface or class of the SDK's declarations. */
function members(head: string): Array<{ name: string; params: string }> {
  const start = declarations.indexOf(`\n${head} `);
  if (start === -1) throw new Error(`no ${head} in the SDK 1.x declarations`);
  const body = declarations.slice(start, declarations.indexOf("\n}\n", start));
  return [...body.matchAll(/^ {4}([A-Za-z_]+)\??\(params: schema\.(\w+)/gm)].map((m) => ({
    name: m[1] as string,
    params: m[2] as string,
  }));
}

/** The rows of the guide's table under `heading`: wire name, kind, SDK 1.x name, ours. */
function rows(heading: string): Array<{ wire: string; kind: string; sdk: string; ours: string }> {
  const section = guide.split(`## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  return [
    ...section.matchAll(/^\| `([^`]+)` \((\w+)\) \| `(\w+)` \| `(\w+)` \| `[^`]+` \|$/gm),
  ].map((m) => ({
    wire: m[1] as string,
    kind: m[2] as string,
    sdk: m[3] as string,
    ours: m[4] as string,
  }));
}

interface MethodSpec {
  method: string;
  side: string;
  kind: string;
  handler: string;
}

describe(`MIGRATING.md against the SDK ${sdkVersion} declarations`, () => {
  it("is checked against a 1.x release", () => {
    expect(sdkVersion).toMatch(/^1\./);
  });

  it.each([
    ["Methods the agent serves", "export interface Agent", "agent"],
    ["Methods the agent serves", "export declare class ClientSideConnection", "agent"],
    ["Methods the client serves", "export interface Client", "client"],
    ["Methods the client serves", "export declare class AgentSideConnection", "client"],
  ])(
    "%s: every member of SDK 1.x `%s` has its row, with our real handler name",
    async (heading, head, side) => {
      const sdkMembers = members(head);
      expect(sdkMembers.length).toBeGreaterThan(5);
      const table = rows(heading);
      const { METHODS } = (await import(
        "../../.test-package/package/v1/unstable/index.js"
      )) as unknown as {
        METHODS: MethodSpec[];
      };
      for (const member of sdkMembers) {
        const wire = schema.$defs[member.params]?.["x-method"];
        expect(wire, `${member.name}(${member.params}) has no method in the schema`).toBeDefined();
        const row = table.find((r) => r.wire === wire && r.sdk === member.name);
        expect(row, `${head}.${member.name} (${wire})`).toBeDefined();
        const ours = METHODS.find(
          (m) =>
            m.method === wire && m.kind === row?.kind && (m.side === side || m.side === "both"),
        );
        expect(ours?.handler, `${wire}`).toBe(row?.ours);
      }
    },
  );

  it("every SDK 1.x RequestError helper exists in ours with the same code, or the guide says what replaces it", async () => {
    const sdk = (await import("@agentclientprotocol/sdk-1")) as unknown as {
      RequestError: Record<string, unknown>;
    };
    const ours = (await import("../../.test-package/package/v1/index.js"))
      .RequestError as unknown as Record<string, unknown>;
    const helpers = Object.getOwnPropertyNames(sdk.RequestError).filter(
      (name) => typeof sdk.RequestError[name] === "function",
    );
    expect(helpers).toContain("authRequired");
    for (const name of helpers) {
      const theirs = sdk.RequestError[name] as (...args: unknown[]) => { code: number };
      const mine = ours[name] as ((...args: unknown[]) => { code: number }) | undefined;
      if (mine) expect(mine().code, name).toBe(theirs("x", ["y"]).code);
      else expect(guide, name).toContain(`\`${name}`);
    }
  });
});
