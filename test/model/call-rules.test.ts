import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { DISPOSE_MEMBER } from "../../generator/model/conventions.js";
import type { SurfaceModel } from "../../generator/model/protocol.js";
import { handleType } from "../../generator/symbols/exports.js";
import { RELEASES_DIR, SCHEMA_DIR } from "../support/run.js";

/**
 * The call rules read from the schema: which request a notification stops (ACP's prompt turn
 * and session/cancel) and which result opens a handle (terminal/create). Checked on the
 * vendored schema and on every released schema the repository keeps.
 */

const surfacesOf = (dir: string): SurfaceModel[] =>
  buildModel(loadSchemaDir(dir, dir, new Diagnostics())).surfaces;

function rulesOf(surface: SurfaceModel) {
  const found: { cancel: string[]; handle: string[] } = { cancel: [], handle: [] };
  for (const side of ["agent", "client"] as const) {
    const { cancelBy, handles } = surface.calls[side];
    for (const [m, cancel] of cancelBy)
      found.cancel.push(`${m.method} ← ${cancel.method} (${cancel.copy.join(", ")})`);
    for (const [m, { spec, namespace, members }] of handles)
      found.handle.push(
        `${m.method} → ${handleType(namespace)} ${spec.id} in ${spec.scope.join(", ")}: ${members.map((x) => `${x.member}=${x.method.method}`).join(" ")}${spec.dispose ? ` dispose=${spec.dispose}` : ""}`,
      );
  }
  return found;
}

describe("call rules from the schema", () => {
  it("v1: session/prompt is stopped by session/cancel, terminal/create opens a terminal handle", () => {
    for (const surface of surfacesOf(SCHEMA_DIR).filter((s) => s.version === 1)) {
      expect(rulesOf(surface), surface.id).toEqual({
        cancel: ["session/prompt ← session/cancel (sessionId)"],
        handle: [
          "terminal/create → TerminalHandle terminalId in sessionId: kill=terminal/kill output=terminal/output release=terminal/release waitForExit=terminal/wait_for_exit dispose=release",
        ],
      });
    }
  });

  it("v2: the prompt's answer only acknowledges it, so abort keeps $/cancel_request; no handles", () => {
    // v2's PromptResponse reports no stop reason: the turn's end comes as a state update.
    for (const surface of surfacesOf(SCHEMA_DIR).filter((s) => s.version === 2))
      expect(rulesOf(surface), surface.id).toEqual({ cancel: [], handle: [] });
  });

  it("finds the same rules in every released v1 schema that has the methods", () => {
    for (const release of ["1.2.1", "1.3.0", "2.0.0", "2.4.0"]) {
      for (const surface of surfacesOf(`${RELEASES_DIR}/${release}`).filter(
        (s) => s.version === 1,
      )) {
        const rules = rulesOf(surface);
        expect(rules.cancel, `${release} ${surface.id}`).toEqual([
          "session/prompt ← session/cancel (sessionId)",
        ]);
        expect(rules.handle[0], `${release} ${surface.id}`).toMatch(
          /^terminal\/create → TerminalHandle/,
        );
      }
    }
  });

  it("the named dispose member exists in the schema it was named for", () => {
    const v1 = surfacesOf(SCHEMA_DIR).find((s) => s.id === "v1");
    expect(v1?.methods.some((m) => m.method === `terminal/${DISPOSE_MEMBER}`)).toBe(true);
  });
});
