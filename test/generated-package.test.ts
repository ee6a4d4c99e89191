import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import { exportedDeclarations, exportedTypes, parse } from "./support/declarations.js";
import { importSurface } from "./support/run.js";
import { methodMaps, SURFACES, schemaOf } from "./support/surfaces.js";
import { TEST_PACKAGE } from "./support/test-package.js";

type Guard = (value: unknown) => boolean;

/** The package generated from schema/ for this test run (see support/test-package.ts). */
const modules = new Map<string, Record<string, unknown>>();
for (const s of SURFACES) modules.set(s.id, await importSurface(TEST_PACKAGE, s.id));
const v1 = SURFACES.find((s) => s.id === "v1") as (typeof SURFACES)[number];

const guard = (surface: string, name: string): Guard => {
  const fn = modules.get(surface)?.[`is${name}`];
  if (typeof fn !== "function") throw new Error(`no is${name} in ${surface}`);
  return fn as Guard;
};

describe.each(SURFACES)("surface $id", (surface) => {
  const schema = schemaOf(surface);
  const maps = methodMaps(schema);
  const defNames = Object.keys(schema.$defs);

  it("exports a type for every definition, and nothing else", () => {
    const path = join(TEST_PACKAGE, surface.id, "types.d.ts");
    // Declared there, or (an unstable surface's unchanged definitions) taken from the stable
    // surface's types.d.ts (test/emit/shared-types.test.ts).
    const declared = exportedTypes(parse(path, readFileSync(path, "utf8")));
    expect(new Set(declared.keys())).toEqual(new Set(defNames));
    expect([...declared.values()].every((n) => n === 1)).toBe(true);
  });

  it("has is/validate/assert for every definition, each backed by a compiled validator", async () => {
    const mod = modules.get(surface.id) ?? {};
    for (const name of defNames) {
      for (const prefix of ["is", "validate", "assert"])
        expect(typeof mod[`${prefix}${name}`], `${prefix}${name}`).toBe("function");
    }
    // Compiled in this surface's validators.js or, for a definition the stable schema has
    // unchanged, imported from the stable surface's (test/shared-validators.test.ts).
    const validators = (await import(
      pathToFileURL(join(TEST_PACKAGE, surface.id, "validators.js")).href
    )) as Record<string, unknown>;
    const exported = Object.keys(validators).filter((k) => typeof validators[k] === "function");
    expect(new Set(exported)).toEqual(new Set(defNames.map((name) => `v${name}`)));
  });

  it("compiles nothing at import time and pulls in no ajv code", () => {
    for (const file of ["validators.js", "guards.js", "index.js"]) {
      const code = readFileSync(join(TEST_PACKAGE, surface.id, file), "utf8");
      expect(code).not.toMatch(/\brequire\(/);
      expect(code).not.toMatch(/from "ajv/);
      expect(code).not.toMatch(/new Function|\beval\(/);
    }
  });

  it("method constants equal the schema's x-method annotations, PROTOCOL_VERSION the folder's", () => {
    const mod = modules.get(surface.id) ?? {};
    expect(mod.PROTOCOL_VERSION).toBe(surface.version);
    expect(mod.AGENT_METHODS).toEqual(maps.agent ?? {});
    expect(mod.CLIENT_METHODS).toEqual(maps.client ?? {});
    expect(mod.PROTOCOL_METHODS).toEqual(maps.protocol ?? {});
    if (maps.proxy) expect(mod.PROXY_METHODS).toEqual(maps.proxy);
  });

  it("METHODS lists every x-method definition with its side, kind and types", () => {
    const methods = (modules.get(surface.id)?.METHODS ?? []) as Array<{
      method: string;
      side: string;
      kind: string;
      params: string;
      result?: string;
    }>;
    const annotated = Object.entries(schema.$defs).filter(
      ([, d]) => typeof d["x-method"] === "string",
    );
    for (const [name, def] of annotated) {
      const role = name.endsWith("Response") ? "result" : "params";
      const entry = methods.find(
        (m) => m.method === def["x-method"] && m.side === def["x-side"] && m[role] === name,
      );
      expect(entry, `${name} (${String(def["x-method"])})`).toBeDefined();
      if (name.endsWith("Notification")) expect(entry?.kind).toBe("notification");
      else expect(entry?.kind).toBe("request");
    }
    const referenced = new Set(methods.flatMap((m) => [m.params, m.result]).filter(Boolean));
    expect(referenced.size).toBe(annotated.length);
  });

  it("the method maps in methods.d.ts cover every method of every serving side", () => {
    const dts = readFileSync(join(TEST_PACKAGE, surface.id, "methods.d.ts"), "utf8");
    const blocks = new Map(
      [...dts.matchAll(/export interface (\w+Map) \{\n([\s\S]*?)\n\}/g)].map((m) => [
        m[1],
        m[2] ?? "",
      ]),
    );
    const sides: Array<[string, Record<string, string>]> = [
      ["Agent", maps.agent ?? {}],
      ["Client", maps.client ?? {}],
      ["Protocol", maps.protocol ?? {}],
    ];
    for (const [side, wires] of sides) {
      const listed = `${blocks.get(`${side}RequestMap`) ?? ""}\n${blocks.get(`${side}NotificationMap`) ?? ""}`;
      for (const wire of Object.values(wires))
        expect(listed, `${side} ${wire}`).toContain(`${JSON.stringify(wire)}: { kind:`);
    }
  });
});

describe.each(SURFACES.filter((s) => !s.stable))("unstable surface $id", (surface) => {
  const stable = SURFACES.find((s) => s.stable && s.version === surface.version);
  const stableDefs = new Set(stable ? Object.keys(schemaOf(stable).$defs) : []);
  /** Each function name the package may export for a definition, to the definition. */
  const owner = new Map<string, string>();
  for (const name of Object.keys(schemaOf(surface).$defs))
    for (const fn of ["is", "validate", "assert", "parse"].map((p) => `${p}${name}`))
      owner.set(fn, name);
  for (const name of Object.keys(schemaOf(surface).$defs)) {
    owner.set(`is${name}Of`, name);
    owner.set(`isCustom${name}`, name);
    owner.set(`isUntagged${name}`, name);
  }

  it("marks every function of a definition the stable schema lacks @experimental, and only those", () => {
    let marked = 0;
    // Where the functions of guards.js and parsers.js are declared, beside the types.
    for (const file of ["types.d.ts"]) {
      const path = join(TEST_PACKAGE, surface.id, file);
      for (const [name, nodes] of exportedDeclarations(parse(path, readFileSync(path, "utf8")))) {
        const def = owner.get(name);
        if (def === undefined || !nodes.every(ts.isVariableDeclaration)) continue;
        // The tag an editor shows for this name: its own declaration's doc comment.
        const tagged = nodes.every((node) =>
          ts.getJSDocTags(node).some((tag) => tag.tagName.text === "experimental"),
        );
        expect(tagged, `${file} ${name}`).toBe(!stableDefs.has(def));
        if (tagged) marked++;
      }
    }
    expect(marked).toBeGreaterThan(0);
  });
});

describe("validators enforce the schema strictly", () => {
  it("integer formats are range checks (ProtocolVersion is uint16)", () => {
    const isProtocolVersion = guard("v1", "ProtocolVersion");
    expect([0, 1, 65535].map(isProtocolVersion)).toEqual([true, true, true]);
    expect([-1, 65536, 1.5, "1", null, Number.NaN].map(isProtocolVersion)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("int64 accepts integers beyond 2^53 but not beyond 2^63 (RequestId)", () => {
    const isRequestId = guard("v1", "RequestId");
    expect(isRequestId(2 ** 60)).toBe(true);
    expect(isRequestId(2 ** 63)).toBe(false);
    expect(isRequestId(-(2 ** 63))).toBe(true);
    expect(isRequestId(0.5)).toBe(false);
  });

  it("every uint-formatted property in the schema rejects negatives", () => {
    const schema = schemaOf(v1);
    let checked = 0;
    for (const [name, def] of Object.entries(schema.$defs)) {
      if (
        typeof def.format === "string" &&
        def.format.startsWith("uint") &&
        def.type === "integer"
      ) {
        expect(guard("v1", name)(-1), name).toBe(false);
        expect(guard("v1", name)(7), name).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("discriminated unions check the payload, not only the tag (ContentBlock)", () => {
    const isContentBlock = guard("v1", "ContentBlock");
    expect(isContentBlock({ type: "text", text: "hi" })).toBe(true);
    expect(isContentBlock({ type: "text" })).toBe(false);
    expect(isContentBlock({ type: "text", text: 42 })).toBe(false);
    expect(isContentBlock({ type: "video", text: "hi" })).toBe(false);
    expect(isContentBlock({ text: "hi" })).toBe(false);
  });

  it("const tags select the branch of tagged unions (SessionUpdate)", () => {
    const isSessionUpdate = guard("v1", "SessionUpdate");
    const chunk = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } };
    expect(isSessionUpdate(chunk)).toBe(true);
    expect(isSessionUpdate({ ...chunk, sessionUpdate: "agent_message_chunk_typo" })).toBe(false);
    expect(isSessionUpdate({ sessionUpdate: "plan", entries: [] })).toBe(true);
    expect(isSessionUpdate({ sessionUpdate: "plan" })).toBe(false);
  });

  it("`not` keeps a known tag from passing as the open catch-all variant (MultiSelectItems)", () => {
    const isMultiSelectItems = guard("v1", "MultiSelectItems");
    expect(isMultiSelectItems({ type: "_custom", anything: 1 })).toBe(true);
    // `string` is a known tag: its payload must match the known branch, never the catch-all.
    expect(isMultiSelectItems({ type: "string" })).toBe(false);
  });

  it("unevaluatedProperties and nested anyOf in an open variant (CreateElicitationRequest, custom mode)", () => {
    const schema = schemaOf(v1);
    expect(JSON.stringify(schema.$defs.CreateElicitationRequest)).toContain(
      '"unevaluatedProperties"',
    );
    const isCreateElicitationRequest = guard("v1", "CreateElicitationRequest");
    const custom = {
      message: "m",
      mode: "_vendor_mode",
      sessionId: "s1",
      vendorField: { any: "thing" },
    };
    expect(isCreateElicitationRequest(custom)).toBe(true);
    // The custom variant still needs one of the scopes (session or request).
    expect(isCreateElicitationRequest({ message: "m", mode: "_vendor_mode" })).toBe(false);
    // A known mode cannot pass as the custom variant with a payload that misses its fields.
    expect(isCreateElicitationRequest({ message: "m", mode: "url", sessionId: "s1" })).toBe(false);
  });

  it("validate<Name> reports instance paths and assert<Name> throws a ValidationError", () => {
    const mod = modules.get("v1") ?? {};
    const validate = mod.validateInitializeRequest as (v: unknown) => {
      valid: boolean;
      issues?: Array<{ instancePath: string; message: string }>;
    };
    const result = validate({ protocolVersion: "one" });
    expect(result.valid).toBe(false);
    expect(result.issues?.[0]?.instancePath).toBe("/protocolVersion");
    expect(result.issues?.[0]?.message).toMatch(/integer/);
    const assert = mod.assertInitializeRequest as (v: unknown) => unknown;
    expect(() => assert({})).toThrow(mod.ValidationError as new () => Error);
    expect(assert({ protocolVersion: 1 })).toEqual({ protocolVersion: 1 });
  });
});

describe("the runtime's JavaScript", () => {
  const runtimeDir = join(TEST_PACKAGE, "runtime");
  const jsFiles = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));

  it("is one web-platform module, the remote transport's, the routers' and the Node helpers', whatever the source's split", () => {
    const sources = readdirSync(join(import.meta.dirname, "..", "templates", "runtime")).filter(
      (f) => f.endsWith(".ts"),
    );
    expect(sources.length).toBeGreaterThan(3);
    expect(jsFiles(runtimeDir).sort()).toEqual(["index.js", "node.js", "remote.js", "router.js"]);
  });

  it("is imported through those files only, and the others share the web one", () => {
    const specifiers = new Set<string>();
    for (const file of jsFiles(TEST_PACKAGE)) {
      if (file.startsWith("runtime/")) continue;
      const code = readFileSync(join(TEST_PACKAGE, file), "utf8");
      for (const m of code.matchAll(/from "((?:\.\.\/)+runtime\/[^"]+)"/g))
        specifiers.add((m[1] as string).replace(/^(\.\.\/)+/, ""));
    }
    expect([...specifiers].sort()).toEqual([
      "runtime/index.js",
      "runtime/node.js",
      "runtime/remote.js",
      "runtime/router.js",
    ]);
    // A class defined in two of them would be two classes: `instanceof` would fail across them.
    // `class Name` or, as a bundler writes it, `var Name = class`.
    const classes = (code: string) =>
      [
        ...code.matchAll(/\bclass\s+(?!extends\b)(\w+)|\b(?:var|let|const)\s+(\w+)\s*=\s*class\b/g),
      ].map((m) => m[1] ?? m[2]);
    const web = new Set(classes(readFileSync(join(runtimeDir, "index.js"), "utf8")));
    for (const other of ["node.js", "remote.js", "router.js"]) {
      const code = readFileSync(join(runtimeDir, other), "utf8");
      expect(code, other).toMatch(/from "\.\/index\.js"/);
      expect(
        classes(code).filter((c) => web.has(c)),
        other,
      ).toEqual([]);
    }
  });
});

describe("the package's declarations", () => {
  /** Every relative module a declaration file names, through the TypeScript parser. */
  const specifiers = (path: string): string[] => {
    const file = parse(path, readFileSync(join(TEST_PACKAGE, path), "utf8"));
    const out: string[] = [];
    const visit = (n: ts.Node) => {
      if (
        (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
        n.moduleSpecifier &&
        ts.isStringLiteral(n.moduleSpecifier)
      )
        out.push(n.moduleSpecifier.text);
      if (
        ts.isImportTypeNode(n) &&
        ts.isLiteralTypeNode(n.argument) &&
        ts.isStringLiteral(n.argument.literal)
      )
        out.push(n.argument.literal.text);
      ts.forEachChild(n, visit);
    };
    visit(file);
    return out.filter((s) => s.startsWith("."));
  };
  const declarationFiles = readdirSync(TEST_PACKAGE, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".d.ts"))
    .map((f) => f.split("\\").join("/"));

  it("are each reached from an entry point, and name no module the package lacks", () => {
    const pkg = JSON.parse(readFileSync(join(TEST_PACKAGE, "package.json"), "utf8")) as {
      exports: Record<string, { types?: string } | string>;
    };
    const work = Object.values(pkg.exports).flatMap((e) =>
      typeof e === "object" && e.types ? [e.types.replace(/^\.\//, "")] : [],
    );
    expect(work.length).toBeGreaterThan(4);
    const reached = new Set<string>();
    while (work.length > 0) {
      const path = work.pop() as string;
      if (reached.has(path)) continue;
      expect(declarationFiles, `named by a declaration: ${path}`).toContain(path);
      reached.add(path);
      for (const s of specifiers(path))
        work.push(join(path, "..", s).split("\\").join("/").replace(/\.js$/, ".d.ts"));
    }
    // Nothing shipped that a consumer's compiler never reads (the exports map lets no one
    // import the rest).
    expect(declarationFiles.filter((f) => !reached.has(f)).sort()).toEqual([]);
  });
});
