import { describe, expect, it } from "vitest";
import { COMPACTIONS } from "../../generator/emit/ajv-output.js";

/**
 * The fold of ajv's error counter (generator/emit/ajv-output.ts) on functions in ajv's layout
 * (`lines: true`, after the earlier rewrites). test/fuzz/compactions.test.ts checks that the
 * real validators keep ajv's verdicts and errors; this checks the cases the real schema may
 * not have: every function where the counter or a flag can change must stay as ajv wrote it.
 */
const fold = COMPACTIONS.find((c) => c.name === "error counter folded where it never changes");
if (!fold) throw new Error("no error-counter compaction");
const lines = (...l: string[]) => l.join("\n");

describe("the error counter is folded only where it never changes", () => {
  it("turns the counter's snapshots, comparisons and flags into constants", () => {
    const ajv = lines(
      'function validate1(data, instancePath=""){',
      "let vErrors = null;",
      "let errors = 0;",
      "if(errors === 0){",
      'if(data && typeof data == "object" && !Array.isArray(data)){',
      'if(data.a !== undefined && func0.call(data, "a")){',
      "const _errs1 = errors;",
      'if(typeof data.a !== "string"){',
      'return __fail(validate1, instancePath+"/a","type",{type: "string"});',
      "}",
      "var valid0 = _errs1 === errors;",
      "}",
      "else {",
      "var valid0 = true;",
      "}",
      "if(valid0){",
      "const _errs2 = errors;",
      "if(errors === _errs2){",
      "x();",
      "}",
      "}",
      "}",
      "}",
      "validate1.errors = vErrors;",
      "return errors === 0;",
      "}",
    );
    expect(fold.apply(`const a = 1;\n${ajv}\nexport const v = validate1;`)).toBe(
      lines(
        "const a = 1;",
        'function validate1(data, instancePath=""){',
        "{",
        'if(data && typeof data == "object" && !Array.isArray(data)){',
        'if(data.a !== undefined && func0.call(data, "a")){',
        'if(typeof data.a !== "string"){',
        'return __fail(validate1, instancePath+"/a","type",{type: "string"});',
        "}",
        "}",
        "{",
        "{",
        "x();",
        "}",
        "}",
        "}",
        "}",
        "validate1.errors = null;",
        "return true;",
        "}",
        "export const v = validate1;",
      ),
    );
  });

  const counted = (write: string) =>
    lines(
      'function validate2(data, instancePath=""){',
      "let vErrors = null;",
      "let errors = 0;",
      "const _errs1 = errors;",
      write,
      "var valid0 = _errs1 === errors;",
      "validate2.errors = vErrors;",
      "return errors === 0;",
      "}",
    );
  it.each([
    ["a counted failure", 'vErrors = __pushIssue(vErrors, instancePath,"type",{});\nerrors++;'],
    [
      "a called validator's errors",
      "errors = (vErrors = __concatIssues(vErrors, validate3.errors)).length;",
    ],
    ["a compound assignment", "errors += 1;"],
    ["a list cut back to a snapshot", "vErrors = __truncateIssues(vErrors, _errs1);"],
  ])("leaves a function with %s as it was", (_, write) => {
    expect(fold.apply(counted(write))).toBe(counted(write));
  });

  it("leaves a function that reads the counter in a form it does not know", () => {
    const code = lines(
      'function validate4(data, instancePath=""){',
      "let vErrors = null;",
      "let errors = 0;",
      "if(errors > 0){",
      "y();",
      "}",
      "validate4.errors = vErrors;",
      "return errors === 0;",
      "}",
    );
    expect(fold.apply(code)).toBe(code);
  });

  it("keeps a flag that is ever anything but true", () => {
    const code = lines(
      'function validate5(data, instancePath=""){',
      "let vErrors = null;",
      "let errors = 0;",
      "if(data){",
      "var valid0 = true;",
      "}",
      "else {",
      "var valid0 = false;",
      "}",
      "if(valid0){",
      "z();",
      "}",
      "validate5.errors = vErrors;",
      "return errors === 0;",
      "}",
    );
    expect(fold.apply(code)).toBe(
      lines(
        'function validate5(data, instancePath=""){',
        "if(data){",
        "var valid0 = true;",
        "}",
        "else {",
        "var valid0 = false;",
        "}",
        "if(valid0){",
        "z();",
        "}",
        "validate5.errors = null;",
        "return true;",
        "}",
      ),
    );
  });
});
