import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

/**
 * The surfaces of the vendored schema, read from the schema folder itself (so a schema bump
 * that adds or drops one changes every test that walks them): each `v<N>/` folder holds
 * `schema.json` (stable) and `schema.unstable.json`, each with its `meta.json` /
 * `meta.unstable.json` where the release ships one (npm releases never do).
 * Entry points as the product defines them: `.` is v1 stable, `./unstable` v1 unstable,
 * `./v<N>` and `./v<N>/unstable` the others.
 */
export interface Surface {
  /** Folder of the surface in the generated package: `v1`, `v1/unstable`, `v2`, … */
  id: string;
  /** Its export in package.json: `.`, `./unstable`, `./v2`, … */
  entry: string;
  version: number;
  stable: boolean;
  /** Schema and meta files, relative to the schema folder; the meta file may not exist. */
  schema: string;
  meta: string;
}

export interface SchemaDocument {
  $defs: Record<string, Record<string, unknown>>;
}

export interface MetaDocument {
  version: number;
  agentMethods: Record<string, string>;
  clientMethods: Record<string, string>;
  protocolMethods: Record<string, string>;
}

export const SCHEMA_DIR = join(ROOT, "schema");

export function surfacesOf(schemaDir: string): Surface[] {
  const versions = readdirSync(schemaDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^v\d+$/.test(e.name))
    .map((e) => Number(e.name.slice(1)))
    .sort((a, b) => a - b);
  const surfaces: Surface[] = [];
  for (const version of versions) {
    const folder = `v${version}`;
    const root = version === 1 ? "." : `./${folder}`;
    for (const stable of [true, false]) {
      const suffix = stable ? "" : ".unstable";
      const schema = `${folder}/schema${suffix}.json`;
      if (!existsSync(join(schemaDir, schema))) continue;
      surfaces.push({
        id: stable ? folder : `${folder}/unstable`,
        entry: stable ? root : root === "." ? "./unstable" : `${root}/unstable`,
        version,
        stable,
        schema,
        meta: `${folder}/meta${suffix}.json`,
      });
    }
  }
  return surfaces;
}

/** Every surface of `schema/`, in the order the package lists its entry points. */
export const SURFACES: readonly Surface[] = surfacesOf(SCHEMA_DIR);

/** Each stable surface with the unstable surface of the same protocol version. */
export const STABLE_UNSTABLE_PAIRS: ReadonlyArray<readonly [Surface, Surface]> = SURFACES.filter(
  (s) => s.stable,
).flatMap((s) => {
  const unstable = SURFACES.find((u) => !u.stable && u.version === s.version);
  return unstable ? [[s, unstable] as const] : [];
});

export function schemaOf(surface: Surface, schemaDir = SCHEMA_DIR): SchemaDocument {
  return JSON.parse(readFileSync(join(schemaDir, surface.schema), "utf8")) as SchemaDocument;
}

/** The surface's meta.json, or undefined where the release ships none. */
export function metaOf(surface: Surface, schemaDir = SCHEMA_DIR): MetaDocument | undefined {
  const path = join(schemaDir, surface.meta);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as MetaDocument) : undefined;
}

export interface AnnotatedMethod {
  /** The method map it belongs to: `agent`, `client`, `protocol` or `proxy`. */
  side: string;
  /** Its key in that map: the wire name in snake_case (see {@link methodKey}). */
  key: string;
  wire: string;
  kind: "request" | "notification";
  /** The `$defs` key of its params definition. */
  params: string;
}

/**
 * A meta.json key as the protocol's own generator makes it from the wire name, the rule
 * PRODUCT.md states for releases without meta.json: a leading `$/` dropped, `/` → `_`,
 * camelCase words → snake_case (`session/set_mode` → `session_set_mode`,
 * `$/cancel_request` → `cancel_request`, `document/didOpen` → `document_did_open`).
 */
export const methodKey = (wire: string): string =>
  wire
    .replace(/^\$\//, "")
    .replace(/\//g, "_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();

/**
 * Every method the schema annotates, read straight from `x-method` / `x-side` on the request
 * and notification definitions (named by their suffix, as the protocol's generator names
 * them): the test suite's own reading, independent of the generator's. `x-side: both` puts a
 * method in the agent's and the client's map alike.
 */
export function annotatedMethods(schema: SchemaDocument): AnnotatedMethod[] {
  const methods: AnnotatedMethod[] = [];
  for (const [name, def] of Object.entries(schema.$defs)) {
    const wire = def["x-method"];
    const side = def["x-side"];
    const kind = name.endsWith("Request")
      ? "request"
      : name.endsWith("Notification")
        ? "notification"
        : undefined;
    if (typeof wire !== "string" || typeof side !== "string" || !kind) continue;
    for (const s of side === "both" ? ["agent", "client"] : [side])
      methods.push({ side: s, key: methodKey(wire), wire, kind, params: name });
  }
  return methods;
}

/** The method maps a surface's meta.json would hold (`agentMethods`, …), from its schema. */
export function methodMaps(schema: SchemaDocument): Record<string, Record<string, string>> {
  const maps: Record<string, Record<string, string>> = {};
  for (const m of annotatedMethods(schema)) {
    maps[m.side] ??= {};
    (maps[m.side] as Record<string, string>)[m.key] = m.wire;
  }
  return maps;
}

/** All method entries of a meta.json: each (side, key) is one method of the surface. */
export function metaMethods(
  meta: MetaDocument,
): Array<{ side: string; key: string; wire: string }> {
  return (["agent", "client", "protocol"] as const).flatMap((side) =>
    Object.entries(meta[`${side}Methods`] ?? {}).map(([key, wire]) => ({ side, key, wire })),
  );
}
