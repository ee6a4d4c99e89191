import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { SCHEMA_DIR } from "../support/run.js";
import { surfacesOf } from "../support/surfaces.js";
import { ACME, PROBE, readExtension } from "./support.js";

/**
 * Which surfaces an extension joins: all by default, those its `x-surfaces` selects, and
 * among those the ones `--extension-surfaces` keeps.
 */

const surfaces = surfacesOf(SCHEMA_DIR);

function joined(files: string[], narrowed?: string[]): string[] {
  const diagnostics = new Diagnostics();
  const input = loadSchemaDir(SCHEMA_DIR, "schema", diagnostics, {
    files: files.map((path) => ({ name: path, path })),
    ...(narrowed ? { surfaces: narrowed } : {}),
  });
  return input.surfaces
    .filter((s) => s.extensions.length > 0)
    .map((s) => `v${s.version}${s.stability === "unstable" ? "/unstable" : ""}`);
}

describe("the surfaces an extension applies to", () => {
  it("every surface without x-surfaces", () => {
    expect(readExtension(PROBE)["x-surfaces"]).toBeUndefined();
    expect(joined([PROBE])).toEqual(surfaces.map((s) => s.id));
  });

  it("x-surfaces: a protocol version selects its stable and unstable surfaces", () => {
    expect(readExtension(ACME)["x-surfaces"]).toEqual(["v1"]);
    expect(joined([ACME])).toEqual(surfaces.filter((s) => s.version === 1).map((s) => s.id));
  });

  it("--extension-surfaces narrows further: by stability, or one surface", () => {
    expect(joined([PROBE], ["unstable"])).toEqual(
      surfaces.filter((s) => !s.stable).map((s) => s.id),
    );
    expect(joined([PROBE], ["v2/unstable"])).toEqual(["v2/unstable"]);
    expect(joined([ACME], ["v2"])).toEqual([]);
  });

  it("an extension that applies nowhere is a warning naming its x-surfaces", () => {
    const diagnostics = new Diagnostics();
    loadSchemaDir(SCHEMA_DIR, "schema", diagnostics, {
      files: [{ name: ACME, path: ACME }],
      surfaces: ["v2"],
    });
    expect(diagnostics.warnings).toEqual([
      {
        file: ACME,
        pointer: "/x-surfaces",
        message: "the extension applies to none of the schema's surfaces",
      },
    ]);
  });
});
