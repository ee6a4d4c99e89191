import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../generator/paths.js";
import { isObject, type Json } from "../../generator/schema/json.js";
import { tempDir } from "../support/run.js";
import { SCHEMA_DIR, type SchemaDocument, SURFACES } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";
import { hasCatchAll, knownTags, readTaggedUnion, type TaggedUnion } from "./tagged.js";

/**
 * Type-level tests: on every tagged union with an untagged variant (serde's fallback), found
 * in each surface's schema by the tests' own reading, narrowing on the tag compiles and
 * narrows soundly, with the oldest and the newest TypeScript the package supports. Each
 * known tag leaves the untagged variants out (their type says the tag is absent, and after
 * parsing it is), a closed union narrows to exactly the tag's variant, and `tag ===
 * undefined` leaves only the untagged ones; the runtime guards narrow the same way.
 */
const TSC = {
  "TypeScript 7": join(ROOT, "node_modules", "typescript", "bin", "tsc"),
  "TypeScript 5.0": join(ROOT, "node_modules", "typescript-5.0", "bin", "tsc"),
};
const work = tempDir("parse-narrowing");
afterAll(() => work.remove());

interface Subject {
  surface: string;
  name: string;
  union: TaggedUnion;
  /** A property the tagged variants declare and no untagged one does, where there is one. */
  taggedOnly?: string;
}

/** Properties a branch declares: its own, and those of what it refers to or combines. */
function declared(branch: Json, defs: Map<string, Json>, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (!isObject(branch)) return out;
  if (isObject(branch.properties)) for (const k of Object.keys(branch.properties)) out.add(k);
  const refs = [branch, ...(Array.isArray(branch.allOf) ? branch.allOf : [])].flatMap((b) =>
    isObject(b) && typeof b.$ref === "string" ? [b.$ref.split("/").pop() as string] : [],
  );
  for (const part of Array.isArray(branch.allOf) ? branch.allOf : [])
    for (const k of declared(part, defs, seen)) out.add(k);
  for (const key of refs) {
    if (seen.has(key)) continue;
    seen.add(key);
    for (const k of declared(defs.get(key) ?? {}, defs, seen)) out.add(k);
  }
  return out;
}

const subjects: Subject[] = [];
for (const surface of SURFACES) {
  const schema = JSON.parse(
    readFileSync(join(SCHEMA_DIR, surface.schema), "utf8"),
  ) as SchemaDocument;
  const defs = new Map(Object.entries(schema.$defs) as Array<[string, Json]>);
  for (const [name, def] of defs) {
    const union = readTaggedUnion(def, defs);
    if (!union?.variants.some((v) => v.kind === "untagged")) continue;
    const untagged = union.variants.filter((v) => v.kind === "untagged");
    const inUntagged = new Set(untagged.flatMap((v) => [...declared(v.schema, defs)]));
    const taggedOnly = union.variants
      .filter((v) => v.kind === "tagged")
      .flatMap((v) => [...declared(v.schema, defs)])
      .find((k) => k !== union.tag && !inUntagged.has(k));
    subjects.push({ surface: surface.id, name, union, ...(taggedOnly ? { taggedOnly } : {}) });
  }
}

function consumer(subject: Subject, index: number, dir: string): string {
  const { name, union, taggedOnly } = subject;
  const entry = relative(dir, join(TEST_PACKAGE, subject.surface, "index.js"))
    .split("\\")
    .join("/");
  const tag = JSON.stringify(union.tag);
  const u = `u${index}`;
  const lines = [
    `import type { ${name} as U${index} } from "./${entry}";`,
    `import { is${name}Of as isOf${index}, isUntagged${name} as isUntagged${index} } from "./${entry}";`,
    `declare const ${u}: U${index};`,
    `declare const raw${index}: unknown;`,
    // The tag can be read on every variant (it is declared absent on the untagged ones).
    `const tag${index}: string | undefined = ${u}[${tag}];`,
    `void tag${index};`,
  ];
  for (const value of knownTags(union)) {
    const v = JSON.stringify(value);
    lines.push(
      `if (${u}[${tag}] === ${v}) {`,
      `  const known: Exclude<U${index}, { ${tag}?: undefined }> = ${u};`,
      "  void known;",
      ...(hasCatchAll(union)
        ? []
        : [`  const exact: Extract<U${index}, { ${tag}: ${v} }> = ${u};`, "  void exact;"]),
      "}",
      `if (isOf${index}(raw${index}, ${v})) {`,
      `  const guarded: Extract<U${index}, { ${tag}: ${v} }> = raw${index};`,
      "  void guarded;",
      "}",
    );
  }
  lines.push(
    `if (${u}[${tag}] === undefined) {`,
    `  const untagged: Exclude<U${index}, { ${tag}: string }> = ${u};`,
    "  void untagged;",
    ...(taggedOnly && !hasCatchAll(union)
      ? [
          `  // @ts-expect-error: no untagged variant has ${taggedOnly}`,
          `  ${u}[${JSON.stringify(taggedOnly)}];`,
        ]
      : []),
    "}",
    `if (isUntagged${index}(raw${index})) {`,
    `  const guarded: Exclude<U${index}, { ${tag}: string }> = raw${index};`,
    `  const absent: undefined = raw${index}[${tag}];`,
    "  void guarded;",
    "  void absent;",
    "}",
  );
  return lines.join("\n");
}

describe("tag narrowing on every union with an untagged variant", () => {
  it("finds them in the schema: McpServer, AuthMethod, SetSessionConfigOptionRequest in v1", () => {
    const v1 = subjects.filter((s) => s.surface === "v1").map((s) => s.name);
    for (const name of ["McpServer", "AuthMethod", "SetSessionConfigOptionRequest"])
      expect(v1).toContain(name);
    // The negative checks have something to bite on.
    expect(subjects.some((s) => s.taggedOnly !== undefined && !hasCatchAll(s.union))).toBe(true);
  });

  it.each(Object.entries(TSC))("compiles and narrows with %s", (compiler, tsc) => {
    const dir = join(work.path, compiler.replace(/\W+/g, "-"));
    // An ES module, as the package is: `.mts` whatever package.json the folder has.
    const file = join(dir, "narrowing.mts");
    spawnSync("mkdir", ["-p", dir]);
    writeFileSync(
      file,
      `${subjects.map((s, i) => consumer(s, i, dir)).join("\n\n")}\nexport {};\n`,
    );
    const config = join(dir, "tsconfig.json");
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          target: "es2020",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          lib: ["es2020"],
          types: [],
        },
        files: [file],
      }),
    );
    const result = spawnSync(process.execPath, [tsc, "-p", config], { encoding: "utf8" });
    expect(result.stdout).toBe("");
    expect(result.status).toBe(0);
  });
});
