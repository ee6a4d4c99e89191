import { describe, expect, it } from "vitest";
import { COMPACTIONS } from "../../generator/emit/ajv-output.js";

/**
 * The rewrites that hand ajv's repeated tests to one helper each, and the merge of validators
 * ajv wrote twice (generator/emit/ajv-output.ts), on code in ajv's layout. test/fuzz/compactions.test.ts checks that the real validators keep
 * ajv's verdicts and errors; this checks the forms the real schema may not have, which must
 * stay as ajv wrote them.
 */
function compaction(name: string) {
  const found = COMPACTIONS.find((c) => c.name === name);
  if (!found) throw new Error(`no compaction "${name}"`);
  return found.apply;
}
const lines = (...l: string[]) => l.join("\n");

describe("object tests by one helper", () => {
  const apply = compaction("object tests by one helper");

  it("rewrites the test where only its truth is read", () => {
    expect(
      apply(
        lines(
          'if(data && typeof data == "object" && !Array.isArray(data)){',
          'if((!(data2 && typeof data2 == "object" && !Array.isArray(data2))) && (data2 !== null)){',
        ),
      ),
    ).toBe(lines("if(__isObject(data)){", "if((!(__isObject(data2))) && (data2 !== null)){"));
  });

  it.each([
    ["whose value is kept", 'var x = data && typeof data == "object" && !Array.isArray(data);'],
    ["of two values", 'if(data && typeof data1 == "object" && !Array.isArray(data)){'],
    [
      "inside a longer condition",
      'if(data && typeof data == "object" && !Array.isArray(data) && y){',
    ],
  ])("leaves a test %s as it was", (_, code) => {
    expect(apply(code)).toBe(code);
  });
});

describe("type failures returned by one helper", () => {
  const apply = compaction("type failures returned by one helper");

  it("rewrites a type failure and leaves the others", () => {
    expect(
      apply(
        lines(
          'return __fail(validate3, instancePath+"/a","type",{type: "string"});',
          'return __fail(validate3, instancePath,"type",{type: __schemaValue0});',
          'return __fail(validate3, instancePath,"enum",{allowedValues: __schemaValue1});',
        ),
      ),
    ).toBe(
      lines(
        'return __failType(validate3, instancePath+"/a", "string");',
        "return __failType(validate3, instancePath, __schemaValue0);",
        'return __fail(validate3, instancePath,"enum",{allowedValues: __schemaValue1});',
      ),
    );
  });
});

describe("identical validators merged", () => {
  const apply = compaction("identical validators merged");
  const validator = (name: string, ...body: string[]) =>
    lines(`function ${name}(data, instancePath=""){`, ...body, `${name}.errors = null;`, "}");
  const stringCheck = (name: string) =>
    validator(
      name,
      'if(typeof data !== "string"){',
      `return __failType(${name}, instancePath, "string");`,
      "}",
    );
  const caller = (name: string, callee: string) =>
    validator(
      name,
      `if(!(${callee}(data.a, instancePath+"/a"))){`,
      `${name}.errors = ${callee}.errors;`,
      "return false;",
      "}",
    );

  it("keeps the first of functions alike but for their name, and names it for the others", () => {
    const code = lines(
      "export const vA = validate1;",
      stringCheck("validate1"),
      "export const vB = validate2;",
      stringCheck("validate2"),
      "export const vC = validate3;",
      caller("validate3", "validate2"),
    );
    expect(apply(code)).toBe(
      lines(
        "export const vA = validate1;",
        stringCheck("validate1"),
        "export const vB = validate1;",
        "export const vC = validate3;",
        caller("validate3", "validate1"),
      ),
    );
  });

  it("merges the callers that become alike once what they call is merged", () => {
    const code = lines(
      stringCheck("validate1"),
      stringCheck("validate2"),
      caller("validate3", "validate1"),
      caller("validate4", "validate2"),
      "export const vD = validate4;",
    );
    expect(apply(code)).toBe(
      lines(
        stringCheck("validate1"),
        caller("validate3", "validate1"),
        "export const vD = validate3;",
      ),
    );
  });

  it("tells a function's name from a property or a string that spells it", () => {
    // Each reads a property spelled as its own name: they read different properties.
    const reader = (name: string) =>
      validator(
        name,
        `if(data.${name} !== undefined && func0.call(data, "${name}")){`,
        `return __failType(${name}, instancePath+"/${name}", "string");`,
        "}",
      );
    const code = lines(reader("validate1"), reader("validate2"), "export const v = validate2;");
    expect(apply(code)).toBe(code);
  });

  it("keeps functions that differ in anything but their name", () => {
    const code = lines(
      stringCheck("validate1"),
      stringCheck("validate2").replace('"string"', '"number"'),
      caller("validate3", "validate1"),
      caller("validate4", "validate2"),
    );
    expect(apply(code)).toBe(code);
  });
});
