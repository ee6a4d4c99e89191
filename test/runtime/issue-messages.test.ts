import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { messageOf } from "../../templates/runtime/validation.js";
import { InstanceGenerator, rng } from "../fuzz/instances.js";
import { referenceAjv } from "../support/reference-ajv.js";
import { SURFACES, schemaOf } from "../support/surfaces.js";
import { TEST_PACKAGE } from "../support/test-package.js";

/**
 * The generated validators carry no message strings: an issue's message is built at run time
 * from the failed keyword and its params. The messages must read as ajv's own (what the
 * package reported when each error carried ajv's string), so ajv compiling the raw schema with
 * its messages on is the oracle: every error it reports, for generated and mutated instances
 * of every definition, must get ajv's message back from the keyword and params alone.
 */

const Ajv2020 = Ajv2020Module.default;
type AjvError = { keyword: string; params: Record<string, unknown>; message?: string };
type Validator = ((value: unknown) => boolean) & { errors?: AjvError[] | null };

/**
 * ajv's message, with the unexpected property named as the package's issues name it, and
 * the values an `enum` or `const` allows listed after it (in JSON, ten at most).
 */
function expected(error: AjvError): string {
  const name = error.params.additionalProperty ?? error.params.unevaluatedProperty;
  const values =
    error.keyword === "enum"
      ? (error.params.allowedValues as unknown[])
      : error.keyword === "const"
        ? [error.params.allowedValue]
        : undefined;
  const listed = values
    ? `${error.keyword === "enum" ? ":" : ""} ${values
        .slice(0, 10)
        .map((v) => JSON.stringify(v))
        .join(", ")}${values.length > 10 ? ", …" : ""}`
    : "";
  return `${error.message}${typeof name === "string" ? `: ${JSON.stringify(name)}` : ""}${listed}`;
}

/**
 * ajv's errors for keywords the fuzzed instances of the schemas may never fail (or that only
 * the generator's rewrites introduce, such as `enum` and ajv's `discriminator`), one value
 * failing as many as it can.
 */
function beyondTheSchemas(): AjvError[] {
  // The tuple's bounds contradict each other on purpose, so that each fails: strict mode's
  // tuple check (a warning on stderr, which names nothing wrong here) is off.
  const ajv = new Ajv2020({ allErrors: true, discriminator: true, strictTuples: false });
  const validate = ajv.compile({
    type: "object",
    properties: {
      s: { type: "string", minLength: 5, maxLength: 1, pattern: '^a"b$' },
      n: { type: "number", multipleOf: 2, exclusiveMinimum: 5, exclusiveMaximum: 1 },
      a: {
        type: "array",
        minItems: 5,
        maxItems: 1,
        uniqueItems: true,
        contains: { const: 9 },
        maxContains: 2,
        prefixItems: [true],
        items: false,
      },
      o: {
        type: "object",
        minProperties: 5,
        maxProperties: 1,
        propertyNames: { maxLength: 1 },
        dependentRequired: { x: ["y", "z"], q: ["r"] },
        unevaluatedProperties: false,
      },
      e: { enum: ["x", "y"] },
      f: false,
    },
  }) as Validator;
  validate({ s: "bbb", n: 3, a: [1, 1, 3], o: { x: 1, q: 2, long: 3 }, e: "z", f: 0 });
  const errors = [...(validate.errors ?? [])];
  const tagged = ajv.compile({
    type: "object",
    discriminator: { propertyName: "kind" },
    required: ["kind"],
    oneOf: [
      { properties: { kind: { const: "a" } }, required: ["kind"] },
      { properties: { kind: { const: "b" } }, required: ["kind"] },
    ],
  }) as Validator;
  for (const value of [{ kind: 1 }, { kind: "c" }]) {
    tagged(value);
    errors.push(...(tagged.errors ?? []));
  }
  return errors;
}

const CASES_PER_DEFINITION = 12;

/** The keywords the generated validators of a surface can report, read from their code. */
function reportable(surfaceId: string): Set<string> {
  const keywords = new Set<string>();
  // A stable surface's shared-validators.js holds the validators its unstable one uses too.
  for (const file of ["validators.js", "shared-validators.js", "parsers-validators.js"]) {
    const path = join(TEST_PACKAGE, surfaceId, file);
    if (!existsSync(path)) continue;
    const code = readFileSync(path, "utf8");
    for (const [, keyword] of code.matchAll(/keyword:"([^"]+)"/g)) keywords.add(keyword ?? "");
  }
  return keywords;
}

describe("issue messages built from keyword and params", () => {
  it.each(SURFACES)("$id: match ajv's for every error on every definition", (surface) => {
    const seen = new Set(beyondTheSchemas().map((e) => e.keyword));
    const schema = schemaOf(surface);
    const ajv = referenceAjv();
    ajv.opts.allErrors = true;
    const id = "acp-codegen:messages";
    ajv.addSchema({ ...schema, $id: id });
    let errors = 0;
    for (const [index, name] of Object.keys(schema.$defs).sort().entries()) {
      const validate = ajv.getSchema(`${id}#/$defs/${name}`) as Validator;
      const instances = new InstanceGenerator(schema.$defs, rng(20261201 + index));
      for (let i = 0; i < CASES_PER_DEFINITION; i++) {
        const value = instances.mutate(instances.sample(schema.$defs[name] ?? true));
        if (validate(value)) continue;
        for (const error of validate.errors ?? []) {
          errors++;
          seen.add(error.keyword);
          expect(messageOf(error.keyword, error.params), `${name}: ${error.keyword}`).toBe(
            expected(error),
          );
        }
      }
    }
    expect(errors).toBeGreaterThan(1000);
    // Every keyword the surface's validators report is among those checked here or below.
    const missed = [...reportable(surface.id)].filter((k) => !seen.has(k));
    expect(missed).toEqual([]);
  });

  it("errors of keywords beyond these schemas, and ajv's discriminator, read as ajv words them", () => {
    const errors = beyondTheSchemas();
    for (const error of errors)
      expect(messageOf(error.keyword, error.params), error.keyword).toBe(expected(error));
    expect(new Set(errors.map((e) => e.keyword)).size).toBeGreaterThanOrEqual(20);
  });
});
