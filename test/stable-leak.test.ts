import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript-5.9";
import { describe, expect, it } from "vitest";
import { ROOT } from "../generator/paths.js";
import {
  exportedDeclarations,
  identifiers,
  importedNames,
  localDeclarations,
  parse,
  shapeOf,
  spelledStrings,
  standardLibraryTypes,
  starExports,
  topMembers,
  typeParameters,
} from "./support/declarations.js";
import { handlerName } from "./support/protocol.js";
import {
  annotatedMethods,
  type SchemaDocument,
  STABLE_UNSTABLE_PAIRS,
  SURFACES,
  type Surface,
  schemaOf,
} from "./support/surfaces.js";
import { TEST_PACKAGE } from "./support/test-package.js";

/**
 * The stable entry points are proven leak-free against the schemas: every file a stable
 * surface emits is read structurally (TypeScript's parser, no text search) and everything in
 * it must come from the stable schema: each type's fields, tags and referenced types from its
 * own stable definition, each method from a stable x-method, each exported name from a stable
 * definition or from the package itself, and no word that only the unstable schema has.
 */

function eachObject(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const v of value) eachObject(v, visit);
  else if (typeof value === "object" && value !== null) {
    visit(value as Record<string, unknown>);
    for (const v of Object.values(value)) eachObject(v, visit);
  }
}

/** Property names declared anywhere inside one definition (its `$ref`s are not followed). */
function declaredProperties(def: unknown): Set<string> {
  const names = new Set<string>();
  eachObject(def, (node) => {
    if (typeof node.properties === "object" && node.properties !== null)
      for (const name of Object.keys(node.properties)) names.add(name);
  });
  return names;
}

/** String values a definition pins anywhere inside it: `const` and `enum` members. */
function pinnedStrings(def: unknown): Set<string> {
  const values = new Set<string>();
  eachObject(def, (node) => {
    if (typeof node.const === "string") values.add(node.const);
    if (Array.isArray(node.enum))
      for (const v of node.enum) if (typeof v === "string") values.add(v);
  });
  return values;
}

/** The words a schema gives meaning to: definition names, properties, pinned values, methods. */
function schemaWords(schema: SchemaDocument): Set<string> {
  const words = new Set(Object.keys(schema.$defs));
  for (const def of Object.values(schema.$defs)) {
    for (const p of declaredProperties(def)) words.add(p);
    for (const v of pinnedStrings(def)) words.add(v);
    eachObject(def, (node) => {
      if (typeof node["x-method"] === "string") words.add(node["x-method"]);
    });
  }
  return words;
}

/** Every string the schema holds anywhere, as a key or a value (descriptions included). */
function allStrings(schema: SchemaDocument): Set<string> {
  const strings = new Set<string>();
  eachObject(schema, (node) => {
    for (const [key, value] of Object.entries(node)) {
      strings.add(key);
      if (typeof value === "string") strings.add(value);
      if (Array.isArray(value)) for (const v of value) if (typeof v === "string") strings.add(v);
    }
  });
  return strings;
}

/** Names the package derives from a definition `D` (PRODUCT.md and the package README). */
const forms = (d: string) => [
  d,
  `is${d}`,
  `validate${d}`,
  `assert${d}`,
  `parse${d}`,
  `is${d}Of`,
  `isCustom${d}`,
  `isUntagged${d}`,
];

/**
 * Handle types the package derives from a method namespace of the schema (the package
 * README: a request whose result other requests act on resolves with one, named after their
 * namespace: `terminal/…` → `TerminalHandle`).
 */
function handleForms(schema: SchemaDocument): string[] {
  const namespaces = new Set<string>();
  eachObject(schema.$defs, (node) => {
    const wire = node["x-method"];
    if (typeof wire === "string" && wire.includes("/")) namespaces.add(wire.split("/")[0] ?? "");
  });
  return [...namespaces].map(
    (ns) => `${ns.replace(/(?:^|_)([a-z0-9])/g, (_m, c: string) => c.toUpperCase())}Handle`,
  );
}

/** Every property name the runtime's types declare (templates/runtime/, read with the parser). */
const RUNTIME_VOCABULARY: ReadonlySet<string> = (() => {
  const dir = join(ROOT, "templates", "runtime");
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
    const visit = (n: ts.Node) => {
      if ((ts.isPropertySignature(n) || ts.isMethodSignature(n)) && ts.isIdentifier(n.name))
        names.add(n.name.text);
      ts.forEachChild(n, visit);
    };
    visit(parse(file, readFileSync(join(dir, file), "utf8")));
  }
  return names;
})();

const read = (surface: Surface, file: string) =>
  readFileSync(join(TEST_PACKAGE, surface.id, file), "utf8");

/** The files a surface emits in its own folder (the unstable sibling folder is another surface). */
function emittedFiles(surface: Surface): string[] {
  const nested = new Set(SURFACES.map((s) => s.id));
  return readdirSync(join(TEST_PACKAGE, surface.id), { withFileTypes: true })
    .filter((e) => e.isFile() || !nested.has(`${surface.id}/${e.name}`))
    .map((e) => e.name)
    .sort();
}

/** Names a declaration file exports, following its `export * from "./…"` into sibling files. */
function declaredExports(surface: Surface, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const source = parse(file, read(surface, file));
  const names = new Set(exportedDeclarations(source).keys());
  for (const target of starExports(source)) {
    if (!target.startsWith("./")) continue;
    const dts = target.slice(2).replace(/\.js$/, ".d.ts");
    for (const name of declaredExports(surface, dts, seen)) names.add(name);
  }
  return names;
}

async function publicNames(surface: Surface): Promise<Set<string>> {
  const runtime = (await import(
    pathToFileURL(join(TEST_PACKAGE, surface.id, "index.js")).href
  )) as Record<string, unknown>;
  return new Set([...Object.keys(runtime), ...declaredExports(surface, "index.d.ts")]);
}

describe.each(STABLE_UNSTABLE_PAIRS.map(([s, u]) => [s.id, s, u] as const))(
  "stable entry point %s: nothing that only the unstable schema has",
  (_id, stable, unstable) => {
    const stableSchema = schemaOf(stable);
    const unstableSchema = schemaOf(unstable);
    const stableDefs = new Set(Object.keys(stableSchema.$defs));
    const files = emittedFiles(stable);

    /**
     * Words the unstable schema gives meaning to and the stable schema never spells, leaving
     * out the runtime's own vocabulary: the property names its contracts declare (a repair
     * plan's `open`, the handshake's `capabilities`) are the package's words on every
     * surface, whatever a schema calls its fields.
     */
    const stableStrings = allStrings(stableSchema);
    const unstableOnly = [...schemaWords(unstableSchema)].filter(
      (w) => !stableStrings.has(w) && !RUNTIME_VOCABULARY.has(w),
    );
    /** Names the package would derive from the definitions only the unstable schema has. */
    const unstableOnlyNames = Object.keys(unstableSchema.$defs)
      .filter((d) => !stableDefs.has(d))
      .flatMap((d) => [...forms(d), `v${d}`]);

    it("the check has something to find: unstable-only words, spelled by the unstable files", () => {
      expect(unstableOnly.length).toBeGreaterThan(0);
      expect(files).toEqual(expect.arrayContaining(["index.d.ts", "index.js", "types.d.ts"]));
      for (const file of ["types.d.ts", "validators.js", "methods.js", "connection.d.ts"]) {
        const spelled = spelledStrings(parse(file, read(unstable, file)));
        expect(
          unstableOnly.some((w) => spelled.has(w)),
          `${unstable.id}/${file}`,
        ).toBe(true);
      }
      for (const file of ["guards.js", "parsers.js", "connection.js"]) {
        const used = identifiers(parse(file, read(unstable, file)));
        expect(
          unstableOnlyNames.some((n) => used.has(n)),
          `${unstable.id}/${file}`,
        ).toBe(true);
      }
    });

    it.each(files)("%s spells no word that only the unstable schema has", (file) => {
      const text = read(stable, file);
      // Not even in a doc comment, unless the stable schema's own text names it.
      const stableText = JSON.stringify(stableSchema);
      for (const name of Object.keys(unstableSchema.$defs))
        if (!stableDefs.has(name) && !stableText.includes(name))
          expect(text, name).not.toMatch(new RegExp(`\\b${name}\\b`));
      const source = parse(file, text);
      const spelled = spelledStrings(source);
      expect(unstableOnly.filter((w) => spelled.has(w))).toEqual([]);
      const used = identifiers(source);
      expect(unstableOnlyNames.filter((n) => used.has(n))).toEqual([]);
    });

    it("each type holds only its own stable definition's fields and tags, and names stable types", () => {
      const source = parse("types.d.ts", read(stable, "types.d.ts"));
      // The file also declares the definitions' functions (their names are checked below).
      const declarations = new Map(
        [...exportedDeclarations(source)].filter(([, nodes]) =>
          nodes.every((n) => ts.isTypeAliasDeclaration(n) || ts.isInterfaceDeclaration(n)),
        ),
      );
      expect(new Set(declarations.keys())).toEqual(stableDefs);
      // The file's own unexported helpers (a shared object type) are spelled out in it, and the
      // word checks above read the whole file.
      const local = localDeclarations(source);
      for (const [name, def] of Object.entries(stableSchema.$defs)) {
        const [declaration, ...more] = declarations.get(name) ?? [];
        expect(more, name).toEqual([]);
        const shape = shapeOf(declaration as NonNullable<typeof declaration>);
        const fields = declaredProperties(def);
        const tags = pinnedStrings(def);
        expect(
          [...shape.members].filter((m) => !fields.has(m)),
          `${name} fields`,
        ).toEqual([]);
        expect(
          [...shape.literals].filter((l) => !tags.has(l)),
          `${name} tags`,
        ).toEqual([]);
        expect(
          [...shape.references].filter((r) => !stableDefs.has(r) && !local.has(r)),
          `${name} references`,
        ).toEqual([]);
      }
    });

    it("every other declaration file names only stable definition types", () => {
      for (const file of files.filter((f) => f.endsWith(".d.ts") && f !== "types.d.ts")) {
        const source = parse(file, read(stable, file));
        const local = new Set([
          ...exportedDeclarations(source).keys(),
          ...importedNames(source),
          ...typeParameters(source),
          ...standardLibraryTypes(),
        ]);
        const foreign = [...shapeOf(source).references].filter(
          (r) => !stableDefs.has(r) && !local.has(r),
        );
        expect(foreign, file).toEqual([]);
      }
    });

    it("every exported name comes from a stable definition or from the package itself", async () => {
      const derived = new Set([...[...stableDefs].flatMap(forms), ...handleForms(stableSchema)]);
      const anyDefinition = new Set(
        SURFACES.flatMap((s) => Object.keys(schemaOf(s).$defs)).flatMap(forms),
      );
      // The package's own names are the same in every entry point, whatever its schema.
      const [first, ...others] = await Promise.all(SURFACES.map(publicNames));
      const own = new Set(
        [...(first ?? [])].filter((n) => !anyDefinition.has(n) && others.every((o) => o.has(n))),
      );
      expect(own.size).toBeGreaterThan(0);
      const names = await publicNames(stable);
      expect([...names].filter((n) => !derived.has(n) && !own.has(n))).toEqual([]);
      // Internal validators: one per stable definition, named after it.
      const validators = exportedDeclarations(
        parse("validators.js", read(stable, "validators.js")),
      );
      expect(new Set([...validators.keys()].map((n) => n.replace(/^v/, "")))).toEqual(stableDefs);
    });

    it("every method in the method maps and the handler interfaces is a stable method", () => {
      const methodOf = new Map(
        Object.entries(stableSchema.$defs).flatMap(([name, def]) =>
          typeof def["x-method"] === "string" ? [[name, def["x-method"]] as const] : [],
        ),
      );
      const stableMethods = annotatedMethods(stableSchema);
      const handlersOf = (wire: string) =>
        stableMethods.filter((m) => m.wire === wire).map((m) => handlerName(m.key));
      /**
       * Members that name a method's definitions, as [file, interface, member, wire, whether
       * the declaration is an interface (a map or handler interface, not a class)].
       */
      const entries: Array<[string, string, string, string, boolean]> = [];
      for (const file of ["methods.d.ts", "connection.d.ts"]) {
        const declarations = exportedDeclarations(parse(file, read(stable, file)));
        for (const [iface, [node]] of declarations) {
          const declared = node as NonNullable<typeof node>;
          for (const member of topMembers(declared)) {
            const wiresNamed = new Set(
              [...member.references].flatMap((r) => (methodOf.has(r) ? [methodOf.get(r)] : [])),
            );
            if (wiresNamed.size === 0) continue;
            expect(wiresNamed.size, `${file} ${iface}.${member.name}`).toBe(1);
            const wire = [...wiresNamed][0] as string;
            entries.push([file, iface, member.name, wire, ts.isInterfaceDeclaration(declared)]);
          }
        }
      }
      const maps = entries.filter(([file]) => file === "methods.d.ts");
      for (const [, iface, name, wire] of maps) expect(name, iface).toBe(wire);
      expect(new Set(maps.map(([, , name]) => name))).toEqual(
        new Set(stableMethods.map((m) => m.wire)),
      );
      const handlers = entries.filter(
        ([file, , , , isInterface]) => file === "connection.d.ts" && isInterface,
      );
      expect(handlers.length).toBeGreaterThan(0);
      for (const [, iface, name, wire] of handlers)
        expect(handlersOf(wire), `${iface}.${name}`).toContain(name);
      // A class's members beyond its handlers (a client's sessions) name stable methods too.
      const stableWires = new Set(stableMethods.map((m) => m.wire));
      for (const [file, iface, name, wire] of entries)
        expect(stableWires.has(wire), `${file} ${iface}.${name}: ${wire}`).toBe(true);
    });
  },
);
