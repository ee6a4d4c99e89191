import { describe, expect, it } from "vitest";
import { createStandaloneAjv, loadFormats, standaloneModule } from "../../generator/emit/ajv.js";
import type { Json } from "../../generator/schema/json.js";

/**
 * ajv's standalone code is third-party text: the one generated code the generator still reads
 * back with regexes (emit/ajv.ts, emit/ajv-output.ts), to wire ajv's `require`s of its helpers
 * and the numeric formats to the package's runtime. These pin the spellings those regexes
 * read in the ajv this project installs: a schema that needs a helper gets its import (and no
 * `require` is left), one that needs none gets no import at all.
 */
async function moduleOf(schema: Json): Promise<string> {
  const formats = await loadFormats();
  const ajv = createStandaloneAjv(formats, [], schema);
  ajv.addSchema({ ...(schema as object), $id: "acp-codegen:test" });
  return standaloneModule(ajv, { vTest: "acp-codegen:test" }, "../runtime", "test.js");
}

/** The names the module imports (from the runtime, one module in JavaScript), as `name as __name`. */
const importsOf = (code: string): string[] =>
  code
    .split("\n")
    .filter((l) => l.startsWith("import "))
    .flatMap((l) => (l.match(/\{ (.*) \}/)?.[1] ?? "").split(", "));

describe("ajv's helpers are wired to the package's runtime", () => {
  it("imports the string-length helper for maxLength, and leaves no require", async () => {
    const code = await moduleOf({ type: "string", maxLength: 3 });
    expect(code).not.toMatch(/\brequire\(/);
    expect(importsOf(code)).toContain("ucs2length as __ucs2length");
  });

  it("imports deep equality for a const object", async () => {
    const code = await moduleOf({ const: { a: [1, 2] } });
    expect(code).not.toMatch(/\brequire\(/);
    expect(importsOf(code)).toContain("equal as __equal");
  });

  it("imports the runtime's formats for a numeric format", async () => {
    const code = await moduleOf({ type: "integer", format: "uint32" });
    expect(importsOf(code)).toContain("formats as __formats");
  });

  it("imports no helper for a schema that needs none", async () => {
    const code = await moduleOf({ type: "boolean" });
    const imported = importsOf(code);
    for (const helper of ["ucs2length", "equal", "formats"])
      expect(imported).not.toContain(`${helper} as __${helper}`);
  });
});
