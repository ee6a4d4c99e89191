import type { Change } from "../../generator/diff/change.js";
import { compareModels } from "../../generator/diff/surfaces.js";
import type { LoadedInput, LoadedSurface } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import type { ProtocolModel } from "../../generator/model/protocol.js";
import type { Json, JsonObject } from "../../generator/schema/json.js";

/** Surface id (`v1`, `v1/unstable`, `v2`…) → its `$defs`. */
export type Defs = Record<string, Json>;

/**
 * A protocol model built from hand-written definitions, through the real model builder
 * (so methods come from `x-method`/`x-side` exactly as for a release), without touching disk.
 */
export function modelOf(surfaces: Record<string, Defs>): ProtocolModel {
  const loaded: LoadedSurface[] = Object.entries(surfaces).map(([id, defs]) => {
    const [major, unstable] = id.split("/");
    const version = Number(major?.slice(1));
    const stability = unstable === "unstable" ? "unstable" : "stable";
    const name = `${version === 1 ? "" : `v${version}/`}schema${stability === "unstable" ? ".unstable" : ""}.json`;
    const schema: JsonObject = { $defs: defs as JsonObject };
    return {
      version,
      stability,
      schema,
      defsKeyword: "$defs",
      defs,
      schemaFile: { name, display: name, sha256: "" },
      extensions: [],
    };
  });
  const input: LoadedInput = {
    surfaces: loaded,
    files: loaded.map((s) => s.schemaFile),
    extensions: [],
  };
  return buildModel(input);
}

/** Changes between two single-surface (`v1`) releases given as their `$defs`. */
export function diffDefs(before: Defs, after: Defs): Change[] {
  return compareModels(modelOf({ v1: before }), modelOf({ v1: after }));
}

/** Only what a test is about: kind, path and the two verdicts. */
export function verdicts(
  changes: Change[],
): Array<Pick<Change, "kind" | "path" | "breaksBuilders" | "breaksReaders" | "docOnly">> {
  return changes.map(({ kind, path, breaksBuilders, breaksReaders, docOnly }) => ({
    kind,
    path,
    breaksBuilders,
    breaksReaders,
    docOnly,
  }));
}

/** A request/response pair annotated the way upstream annotates methods: `<Name>Request`, `<Name>Response`. */
export function method(
  name: string,
  wire: string,
  side: "agent" | "client" | "protocol",
  params: JsonObject = { type: "object" },
): Defs {
  return {
    [`${name}Request`]: { ...params, "x-side": side, "x-method": wire },
    [`${name}Response`]: { type: "object", "x-side": side, "x-method": wire },
  };
}
