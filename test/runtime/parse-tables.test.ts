import { describe, expect, it } from "vitest";
import {
  createParsePlan,
  type PlanNode,
  type ShapeNode,
  table,
} from "../../templates/runtime/parse.js";
import type { CompiledValidator } from "../../templates/runtime/validation.js";

/**
 * parsers.js writes its record tables as `table(() => [...])`: nothing is built when the
 * module is imported, the records are built the first time a value needs them, once, and
 * every plan that reads a table reads the same records.
 */
describe("record tables", () => {
  it("are built on first read, once", () => {
    let built = 0;
    const records = table(() => {
      built++;
      return [{ name: "a" }];
    });
    expect(built).toBe(0);
    const first = records();
    expect(records()).toBe(first);
    expect(built).toBe(1);
  });

  it("are not read by a plan until a value must change", () => {
    let reads = 0;
    const shapes = table<ShapeNode>(() => {
      reads++;
      return [{ keys: [["kept", -1]] }];
    });
    const nodes = table<PlanNode>(() => []);
    const isObject = ((v: unknown) => typeof v === "object" && v !== null) as CompiledValidator;
    const plan = createParsePlan(nodes, shapes, [], [(v, x) => plan.reshape(v, 0, x)]);
    expect(reads).toBe(0);
    // A valid value with a key to drop: its walk (here straight to the interpreter) reads the
    // table for the first time; the next value reuses what was built.
    expect(plan.read({ kept: 1, dropped: 2 }, undefined, isObject, "T", 0)).toEqual({ kept: 1 });
    expect(reads).toBe(1);
    expect(plan.read({ kept: 3 }, undefined, isObject, "T", 0)).toEqual({ kept: 3 });
    expect(reads).toBe(1);
  });
});
