import { describe, expect, it } from "vitest";
import { createParsePlan, type PlanNode, type ShapeNode } from "../../templates/runtime/parse.js";
import type { CompiledValidator } from "../../templates/runtime/validation.js";

/**
 * parsers.js writes its record tables as functions that build the records on first call
 * (`() => (records ??= [...])`): the plan calls them only when a value must be repaired or
 * reshaped, so importing parsers.js builds none of them.
 */
describe("record tables", () => {
  it("are not read by a plan until a value must change", () => {
    let reads = 0;
    const shapes = (): readonly ShapeNode[] => {
      reads++;
      return [{ keys: [["kept", -1]] }];
    };
    const nodes = (): readonly PlanNode[] => [];
    const isObject = ((v: unknown) => typeof v === "object" && v !== null) as CompiledValidator;
    const plan = createParsePlan(nodes, shapes, [], [(v, x) => plan.reshape(v, 0, x)]);
    expect(reads).toBe(0);
    // Valid and whole: nothing to change, the walk returns it as is.
    const whole = { kept: 1 };
    const walkWhole = createParsePlan(nodes, shapes, [], [(v) => v]);
    expect(walkWhole.read(whole, undefined, isObject, "T", 0)).toBe(whole);
    expect(reads).toBe(0);
    // A valid value with a key to drop: its walk (here straight to the interpreter) reads the
    // table; the next value reuses the node built from it.
    expect(plan.read({ kept: 1, dropped: 2 }, undefined, isObject, "T", 0)).toEqual({ kept: 1 });
    expect(reads).toBe(1);
    expect(plan.read({ kept: 3, dropped: 4 }, undefined, isObject, "T", 0)).toEqual({ kept: 3 });
    expect(reads).toBe(1);
  });
});
