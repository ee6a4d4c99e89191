import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Change } from "../../generator/diff/change.js";
import { loadSide } from "../../generator/diff/input.js";
import { suggestBump } from "../../generator/diff/semver.js";
import { compareModels } from "../../generator/diff/surfaces.js";

/**
 * Diffs between real releases. Each expectation below is a fact read off the schema files
 * themselves (noted beside it), not a snapshot of the report: the report may be reworded,
 * these verdicts must not change.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The protocol's own schema history, copied into the repository's fixtures. */
const history = resolve(repo, "test/fixtures/history");
const releases = join(repo, "test/fixtures/releases");

const REAL_SCHEMAS = [
  join(repo, "schema"),
  join(history, "v0.6.3"),
  join(history, "v0.10.4"),
  join(history, "v1.0.0"),
  ...["0.4.5", "0.23.0", "1.2.1", "1.3.0", "2.0.0", "2.4.0"].map((v) => join(releases, v)),
];

const cache = new Map<string, Change[]>();

/** Loaded on first use, so a missing folder fails each test that needs it, by name. */
function diff(oldDir: string, newDir: string): Change[] {
  const key = `${oldDir}\u0000${newDir}`;
  let changes = cache.get(key);
  if (!changes) {
    for (const dir of [oldDir, newDir]) {
      if (!existsSync(dir)) throw new Error(`missing schema folder ${dir}`);
    }
    changes = compareModels(loadSide(oldDir).model, loadSide(newDir).model);
    cache.set(key, changes);
  }
  return changes;
}

function find(changes: Change[], surface: string, kind: Change["kind"], subject: string): Change {
  const found = changes.find(
    (c) => c.surface === surface && c.kind === kind && c.subject === subject,
  );
  if (!found) throw new Error(`no ${kind} of ${subject} on ${surface}`);
  return found;
}

const verdict = (c: Change) => ({ builders: c.breaksBuilders, readers: c.breaksReaders });

describe("a schema against itself", () => {
  it.each(REAL_SCHEMAS)("%s has no changes", (dir) => {
    const changes = diff(dir, dir);
    expect(changes).toEqual([]);
    expect(suggestBump(changes).bump).toBe("none");
  });
});

describe("v0.6.3 → v0.10.4 (schema history)", () => {
  const changes = () => diff(join(history, "v0.6.3"), join(history, "v0.10.4"));

  it("session/set_model left stable for unstable: breaking for builders and readers", () => {
    // v0.6.3/meta.json lists session_set_model under agentMethods; in v0.10.4 only
    // schema.unstable.json has a definition with x-method "session/set_model".
    const moved = find(
      changes(),
      "v1",
      "method-moved-to-unstable",
      "session/set_model (request handled by agent)",
    );
    expect(verdict(moved)).toEqual({ builders: true, readers: true });
    expect(moved.path).toBe("$defs/SetSessionModelRequest/x-method");
  });

  it("the unstable entry point is new", () => {
    // v0.6.3 ships schema.json + meta.json only; v0.10.4 adds schema.unstable.json.
    expect(find(changes(), "v1/unstable", "surface-added", "./unstable").breaksReaders).toBe(false);
  });

  it("NewSessionResponse.models (optional) was removed: breaks readers, not builders", () => {
    // v0.6.3: NewSessionResponse.properties.models exists, required is ["sessionId"]; v0.10.4 has no models.
    expect(verdict(find(changes(), "v1", "field-removed", "NewSessionResponse.models"))).toEqual({
      builders: false,
      readers: true,
    });
  });

  it("SessionUpdate branches moved their fields into named definitions without changing a variant", () => {
    // v0.6.3 writes the user_message_chunk branch inline; v0.10.4 allOf-refs ContentChunk.
    expect(
      find(changes(), "v1", "ref-changed", 'SessionUpdate<"user_message_chunk">').breaksReaders,
    ).toBe(false);
    expect(
      changes().filter((c) => c.subject === "SessionUpdate" && c.kind.startsWith("variant-")),
    ).toEqual([]);
  });

  it("asks for a major bump", () => {
    expect(suggestBump(changes()).bump).toBe("major");
  });
});

describe("v0.10.4 → v1.0.0 (schema history)", () => {
  const changes = () => diff(join(history, "v0.10.4"), join(history, "v1.0.0"));

  it("session/list, session/resume and session/set_config_option were stabilized", () => {
    // All three are only in v0.10.4/schema.unstable.json, and in v1.0.0/v1/schema.json.
    for (const wire of ["session/list", "session/resume", "session/set_config_option"]) {
      const c = find(changes(), "v1", "method-stabilized", `${wire} (request handled by agent)`);
      expect(verdict(c)).toEqual({ builders: false, readers: false });
    }
  });

  it("logout, session/close and session/delete are new in stable and were in no unstable schema before", () => {
    for (const wire of ["logout", "session/close", "session/delete"]) {
      expect(
        find(changes(), "v1", "method-added", `${wire} (request handled by agent)`).breaksReaders,
      ).toBe(false);
    }
  });

  it("three new SessionUpdate variants break readers (exhaustive switches), not builders", () => {
    // v0.10.4 SessionUpdate tags end at current_mode_update; v1.0.0 adds these three.
    for (const tag of ["config_option_update", "session_info_update", "usage_update"]) {
      const added = changes().find(
        (c) =>
          c.surface === "v1" && c.kind === "variant-added" && c.description.includes(`"${tag}"`),
      );
      expect(added && verdict(added)).toEqual({ builders: false, readers: true });
    }
  });

  it("session/set_model was dropped from unstable altogether: breaking", () => {
    // In v1.0.0 no file has x-method "session/set_model".
    const removed = find(
      changes(),
      "v1/unstable",
      "method-removed",
      "session/set_model (request handled by agent)",
    );
    expect(verdict(removed)).toEqual({ builders: true, readers: true });
  });

  it("v2 and v2/unstable appear as new entry points", () => {
    expect(
      changes()
        .filter((c) => c.kind === "surface-added")
        .map((c) => c.surface),
    ).toEqual(["v2", "v2/unstable"]);
  });
});

describe("v1.0.0 → pinned schema/", () => {
  const changes = () => diff(join(history, "v1.0.0"), join(repo, "schema"));

  it("elicitation and $/cancel_request were stabilized in v1", () => {
    // All three are in v1.0.0/v1/schema.unstable.json only, and in schema/v1/schema.json.
    expect(
      find(changes(), "v1", "method-stabilized", "elicitation/create (request handled by client)"),
    ).toBeDefined();
    expect(
      find(
        changes(),
        "v1",
        "method-stabilized",
        "elicitation/complete (notification handled by client)",
      ),
    ).toBeDefined();
    expect(
      find(
        changes(),
        "v1",
        "method-stabilized",
        "$/cancel_request (notification handled by protocol)",
      ),
    ).toBeDefined();
  });

  it("v1 AuthMethod gained the terminal variant: readers break, builders do not", () => {
    // v1.0.0/v1 AuthMethod is anyOf [agent] with no catch-all; schema/v1 adds a `type: "terminal"` branch.
    const added = changes().find(
      (c) => c.surface === "v1" && c.subject === "AuthMethod" && c.kind === "variant-added",
    );
    expect(added?.description).toContain('"terminal"');
    expect(added && verdict(added)).toEqual({ builders: false, readers: true });
  });

  it("v2 replaced authenticate/logout by auth/login and auth/logout, and dropped session/load", () => {
    // v1.0.0/v2/schema.json has authenticate, logout and session/load; schema/v2 has
    // auth/login and auth/logout instead, and neither v2 schema has session/load.
    for (const wire of ["authenticate", "logout", "session/load"]) {
      expect(
        verdict(find(changes(), "v2", "method-removed", `${wire} (request handled by agent)`)),
      ).toEqual({
        builders: true,
        readers: true,
      });
    }
    for (const wire of ["auth/login", "auth/logout"]) {
      expect(
        find(changes(), "v2", "method-added", `${wire} (request handled by agent)`).breaksBuilders,
      ).toBe(false);
    }
  });
});

describe("SDK releases (test/fixtures/releases)", () => {
  it("1.2.1 → 1.3.0 is a minor bump: an optional field and the hybrid v2/unstable entry point", () => {
    // 1.3.0 adds ToolCall.name (type [string, null], not in required) and v2/schema.unstable.json.
    const changes = diff(join(releases, "1.2.1"), join(releases, "1.3.0"));
    expect(suggestBump(changes).bump).toBe("minor");
    expect(verdict(find(changes, "v1", "field-added", "ToolCall.name"))).toEqual({
      builders: false,
      readers: false,
    });
    expect(find(changes, "v2/unstable", "surface-added", "./v2/unstable")).toBeDefined();
  });

  it("2.0.0 → 2.4.0: ToolCallLocation.line minimum 0 → 1 in v2 breaks builders only", () => {
    // 2.0.0/v2 ToolCallLocation.line has minimum 0; 2.4.0/v2 has minimum 1 ("`0` is invalid").
    const changes = diff(join(releases, "2.0.0"), join(releases, "2.4.0"));
    const line = changes.find(
      (c) => c.surface === "v2" && c.path === "$defs/ToolCallLocation/properties/line/minimum",
    );
    expect(line?.kind).toBe("constraint-changed");
    expect(line && verdict(line)).toEqual({ builders: true, readers: false });
    expect(suggestBump(changes).bump).toBe("major");
  });

  it("2.0.0 → 2.4.0: stable v1 only gained lenient-parsing annotations and docs", () => {
    // x-deserialize-default-on-null first appears in 2.1.0 (see the fixtures README).
    const v1 = diff(join(releases, "2.0.0"), join(releases, "2.4.0")).filter(
      (c) => c.surface === "v1",
    );
    expect(suggestBump(v1).bump).toBe("minor");
    expect(find(v1, "v1", "parsing-changed", "CreateTerminalRequest.args").description).toContain(
      "x-deserialize-default-on-null",
    );
  });

  it("2.0.0 → 2.4.0: the proxy methods are new in unstable", () => {
    // x-side "proxy" exists only in 2.4.0's *.unstable.json files.
    const changes = diff(join(releases, "2.0.0"), join(releases, "2.4.0"));
    expect(
      find(changes, "v1/unstable", "method-added", "proxy/initialize (request handled by proxy)"),
    ).toBeDefined();
    expect(changes.some((c) => c.surface === "v1" && c.subject.startsWith("proxy/"))).toBe(false);
  });
});
