import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { emitContext } from "../../generator/emit/contexts.js";
import { InputError } from "../../generator/errors.js";
import { type LoadedInput, loadSurfaces } from "../../generator/load/index.js";
import { surfaceOfFile } from "../../generator/load/layout.js";
import { buildModel } from "../../generator/model/build.js";
import { ROOT } from "../../generator/paths.js";
import { emitSurface } from "../../generator/pipeline.js";
import type { Json, JsonObject } from "../../generator/schema/json.js";
import {
  CAPABILITIES_IMPORTS,
  CONNECTION_IMPORTS,
  CONNECTION_REEXPORTS,
  ERRORS_IMPORTS,
  INDEX_REEXPORTS,
  NODE_REEXPORTS,
  REMOTE_REEXPORTS,
  ROUTER_IMPORTS,
  ROUTER_REEXPORTS,
  RUNTIME_NODE_MODULE,
  type RuntimeImport,
  runtimeBundle,
  SESSION_IMPORTS,
  TYPES_IMPORTS,
} from "../../generator/symbols/exports.js";
import { buildSymbols, type SurfaceSymbols } from "../../generator/symbols/table.js";
import { exportedDeclarations, parse, starExports } from "../support/declarations.js";
import { RELEASES_DIR } from "../support/run.js";

/** The symbol table of one stable v1 surface made of `defs`, or the error it refuses them with. */
function symbolsOf(defs: Record<string, Json>): SurfaceSymbols {
  const schemaFile = { name: "schema.json", display: "schema.json", sha256: "" };
  const input: LoadedInput = {
    surfaces: [
      {
        version: 1,
        stability: "stable",
        schema: { $defs: defs as JsonObject },
        defsKeyword: "$defs",
        defs,
        schemaFile,
        extensions: [],
      },
    ],
    files: [schemaFile],
    extensions: [],
  };
  const model = buildModel(input);
  return buildSymbols(model).of(model.surfaces[0] as (typeof model.surfaces)[number]);
}

function refusal(defs: Record<string, Json>): string {
  try {
    symbolsOf(defs);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).message;
  }
  throw new Error("expected the symbol table to refuse these definitions");
}

/** A tagged union on `type`, open (with a catch-all variant) or closed. */
const union = (open: boolean): Json => ({
  oneOf: [
    { type: "object", properties: { type: { const: "a", type: "string" } }, required: ["type"] },
    ...(open
      ? [
          {
            type: "object",
            properties: { type: { type: "string", not: { enum: ["a"] } } },
            required: ["type"],
          },
        ]
      : []),
  ],
});

describe("symbol table", () => {
  it("names a definition's functions after its key, and union helpers only for unions", () => {
    const names = symbolsOf({ Open: union(true), Closed: union(false), Plain: { type: "string" } });
    expect(names.definition("Open")).toEqual({
      key: "Open",
      type: "Open",
      guard: "isOpen",
      validate: "validateOpen",
      assert: "assertOpen",
      parse: "parseOpen",
      validator: "vOpen",
      variantGuard: "isOpenOf",
      customGuard: "isCustomOpen",
    });
    expect(names.definition("Closed").variantGuard).toBe("isClosedOf");
    expect(names.definition("Closed").customGuard).toBeUndefined();
    expect(names.definition("Plain").variantGuard).toBeUndefined();
  });

  it("refuses keys that cannot name a type", () => {
    expect(refusal({ class: {} })).toBe(
      'schema.json#/$defs/class: definition name "class" is a reserved word in TypeScript',
    );
    expect(refusal({ "a-b": {} })).toMatch(/"a-b" is not a valid TypeScript identifier$/);
    expect(refusal({ toString: {} })).toMatch(/"toString" is a member of Object.prototype$/);
  });

  it("refuses a definition named like a package export, on every surface alike", () => {
    for (const name of [
      ...["RemoteAgent", "ValidationIssue", "PROXY_METHODS", "ProxyRequestMap"],
      ...["RequestError", "MessageTooLargeError", "TraceEvent"],
    ])
      expect(refusal({ [name]: {} })).toBe(
        `schema.json#/$defs/${name}: definition name "${name}" collides with a name the generated package exports`,
      );
  });

  it("refuses a definition named like another's function", () => {
    expect(refusal({ Foo: {}, isFoo: {} })).toBe(
      'schema.json#/$defs/isFoo: definition name "isFoo" collides with the isFoo function of definition Foo',
    );
  });

  it("refuses a union helper named like a function or a type", () => {
    expect(refusal({ Bar: union(true), CustomBar: {} })).toBe(
      "schema.json#/$defs/Bar: union helper isCustomBar collides with a function generated for CustomBar",
    );
    expect(refusal({ Baz: union(false), isBazOf: {} })).toBe(
      "schema.json#/$defs/Baz: union helper isBazOf collides with the type of definition isBazOf",
    );
  });
});

/**
 * Names a declaration file exports, read by the TypeScript parser: declarations (every
 * declarator of a `const` list) and `export { … } from` lists.
 */
function exportedNames(path: string, dts: string): string[] {
  return [...exportedDeclarations(parse(path, dts))].flatMap(([name, nodes]) =>
    nodes.map(() => name),
  );
}

describe("symbol table against a generated package", () => {
  it("holds exactly the names an entry point exports (SDK 2.4.0 v1 unstable: proxy methods, open unions)", async () => {
    const file = join(RELEASES_DIR, "2.4.0", "v1", "schema.unstable.json");
    const model = buildModel(loadSurfaces([surfaceOfFile(file, file)], new Diagnostics()));
    const symbols = buildSymbols(model);
    for (const surface of model.surfaces) {
      const names = symbols.of(surface);
      const files = await emitSurface(await emitContext(surface, names, new Diagnostics()));
      const read = (m: string) => {
        const file = files.find((f) => f.path === `${surface.id}/${m}.d.ts`);
        if (!file) throw new Error(`no ${surface.id}/${m}.d.ts`);
        return parse(file.path, file.content);
      };
      // What a consumer's compiler reads: the entry point and the modules it re-exports whole.
      const modules = [
        "index",
        ...starExports(read("index")).map((target) => target.replace(/^\.\/(.*)\.js$/, "$1")),
      ];
      const exported = modules.flatMap((m) => {
        const file = files.find((f) => f.path === `${surface.id}/${m}.d.ts`);
        if (!file) throw new Error(`no ${surface.id}/${m}.d.ts`);
        return exportedNames(file.path, file.content);
      });
      const expected = [
        ...names.definitions.flatMap((d) => [
          d.type,
          d.guard,
          d.validate,
          d.assert,
          d.parse,
          ...(d.variantGuard ? [d.variantGuard] : []),
          ...(d.customGuard ? [d.customGuard] : []),
          ...(d.untaggedGuard ? [d.untaggedGuard] : []),
        ]),
        ...names.sides.flatMap((side) => [
          names.methodConstant(side),
          names.methodMap(side, "request"),
          names.methodMap(side, "notification"),
        ]),
        ...Object.values(names.methodModule),
        ...Object.values(names.roles).flatMap((r) => [r.handlers, r.remote, r.connection]),
        ...(names.chain
          ? [
              names.chain.roles.proxy.handlers,
              names.chain.roles.proxy.connection,
              ...Object.values(names.chain.roles.conductor),
            ]
          : []),
        ...names.handleTypes,
        names.errors.errorClass,
        names.capabilities.gates,
        ...Object.values(names.capabilities.helpers ?? {}),
        ...Object.values(names.session ?? {}),
        ...[...names.reexports.connection, ...names.reexports.index].flatMap((r) => r.names),
        names.received,
      ];
      expect(new Set(exported), surface.id).toEqual(new Set(expected));
      expect(exported.length, `${surface.id}: a name exported twice`).toBe(new Set(exported).size);
    }
    expect(model.surfaces.some((s) => symbols.of(s).sides.includes("proxy"))).toBe(true);
    expect(model.surfaces.some((s) => symbols.of(s).chain)).toBe(true);
    expect(model.surfaces.every((s) => symbols.of(s).handleTypes.includes("TerminalHandle"))).toBe(
      true,
    );
    expect(model.surfaces.every((s) => symbols.of(s).session?.session === "Session")).toBe(true);
  });

  it("types.d.ts declares exactly what guards.js and parsers.js export, and nothing declares them twice", async () => {
    const file = join(RELEASES_DIR, "2.4.0", "v1", "schema.unstable.json");
    const model = buildModel(loadSurfaces([surfaceOfFile(file, file)], new Diagnostics()));
    const symbols = buildSymbols(model);
    for (const surface of model.surfaces) {
      const files = await emitSurface(
        await emitContext(surface, symbols.of(surface), new Diagnostics()),
      );
      const names = (path: string) => {
        const found = files.find((f) => f.path === `${surface.id}/${path}`);
        if (!found) throw new Error(`no ${surface.id}/${path}`);
        return exportedNames(found.path, found.content).sort();
      };
      const types = new Set(names("types.d.ts"));
      const functions = ["guards", "parsers"].flatMap((m) => {
        const js = names(`${m}.js`);
        expect(js.length, m).toBeGreaterThan(0);
        return js;
      });
      expect(
        functions.filter((n) => !types.has(n)),
        `${surface.id}/types.d.ts`,
      ).toEqual([]);
      expect(types.size).toBe(functions.length + symbols.of(surface).definitions.length);
      // The function modules carry no declarations of their own: the package exports no path
      // to them, and types.d.ts is where the entry point finds them.
      for (const m of ["guards", "parsers"])
        expect(files.map((f) => f.path)).not.toContain(`${surface.id}/${m}.d.ts`);
    }
  });

  it("refuses a definition named like a handle type of the surface's own methods", () => {
    const file = join(RELEASES_DIR, "2.4.0", "v1", "schema.json");
    const loaded = loadSurfaces([surfaceOfFile(file, file)], new Diagnostics());
    const surface = loaded.surfaces[0] as LoadedInput["surfaces"][number];
    surface.defs = { ...surface.defs, TerminalHandle: { type: "string" } };
    expect(() => buildSymbols(buildModel(loaded))).toThrow(
      /#\/\$defs\/TerminalHandle: definition name "TerminalHandle" collides with a name the generated package exports$/,
    );
  });

  it("refuses a proxy method whose handler name the chain's roles already use for another method", () => {
    const file = join(RELEASES_DIR, "2.4.0", "v1", "schema.unstable.json");
    const loaded = loadSurfaces([surfaceOfFile(file, file)], new Diagnostics());
    const surface = loaded.surfaces[0] as LoadedInput["surfaces"][number];
    // A proxy method `session/new` would be served under the agent's handler name `sessionNew`.
    const proxyMethod = (method: string) => ({
      ProxyCloneRequest: { type: "object", "x-side": "proxy", "x-method": method },
      ProxyCloneResponse: { type: "object", "x-side": "proxy", "x-method": method },
    });
    surface.defs = { ...surface.defs, ...proxyMethod("proxy/clone") };
    expect(() => buildSymbols(buildModel(loaded))).not.toThrow();
    surface.defs = { ...surface.defs, ...proxyMethod("session/new") };
    expect(() => buildSymbols(buildModel(loaded))).toThrow(
      /#\/\$defs\/ProxyCloneRequest: proxy method session\/new has the handler name sessionNew of the agent's session\/new$/,
    );
  });

  // The declarations' imports too: the package ships the runtime declarations they name.
  it("re-exports and imports only what the runtime's modules export, values as values", () => {
    const imports = [
      CONNECTION_IMPORTS,
      SESSION_IMPORTS,
      CAPABILITIES_IMPORTS,
      ERRORS_IMPORTS,
      TYPES_IMPORTS,
    ].flatMap((file): RuntimeImport[] => Object.values(file));
    for (const r of [
      ...CONNECTION_REEXPORTS,
      ...INDEX_REEXPORTS,
      ...NODE_REEXPORTS,
      ...REMOTE_REEXPORTS,
      ...ROUTER_REEXPORTS,
      ...ROUTER_IMPORTS,
      ...imports,
    ]) {
      const source = readFileSync(
        join(ROOT, "templates", "runtime", r.from.replace(/\.js$/, ".ts")),
        "utf8",
      );
      for (const name of r.names) {
        const kinds = r.typeOnly ? "interface|type|class" : "class|(?:async )?function|const";
        const declared = new RegExp(`^export (?:${kinds}) ${name}\\b`, "m");
        expect(declared.test(source), `${r.from} exports ${name}`).toBe(true);
      }
    }
  });

  /** What the runtime modules of a bundle (`node.js`) export, by name. */
  function exportsOfBundle(bundle: string): string[] {
    return readdirSync(join(ROOT, "templates", "runtime"))
      .filter((f) => f.endsWith(".ts") && runtimeBundle(f.replace(/\.ts$/, ".js")) === bundle)
      .flatMap((f) => {
        const source = readFileSync(join(ROOT, "templates", "runtime", f), "utf8");
        return [
          ...source.matchAll(/^export (?:interface|type|class|(?:async )?function|const) (\w+)/gm),
        ].map((m) => m[1] as string);
      });
  }

  it("passes on every export of the runtime's Node modules through the Node entry point", () => {
    expect(NODE_REEXPORTS.flatMap((r) => r.names).sort()).toEqual(
      exportsOfBundle(RUNTIME_NODE_MODULE).sort(),
    );
  });
});
