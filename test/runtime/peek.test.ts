import { describe, expect, it } from "vitest";
import { peek } from "../../templates/runtime/peek.js";

describe("peek: what the head of an over-size message says", () => {
  it("finds the top-level id and method, whatever comes before them", () => {
    expect(
      peek('{"jsonrpc":"2.0","id":42,"method":"session/prompt","params":{"prompt":[{"ty'),
    ).toEqual({
      id: 42,
      method: true,
    });
    expect(
      peek(' { "method" : "x", "params": {"a": [1, {"b": "}"}]}, "id": "req-7", "pad": "'),
    ).toEqual({
      id: "req-7",
      method: true,
    });
  });

  it("never takes a nested id for the message's", () => {
    expect(peek('{"jsonrpc":"2.0","method":"x","params":{"id":3,"deep":{"id":4}},"pa')).toEqual({
      method: true,
    });
  });

  it("recognises a response and its id", () => {
    expect(peek('{"jsonrpc":"2.0","id":9,"result":{"content":"aaaa')).toEqual({
      id: 9,
      response: true,
    });
  });

  it("leaves out an id cut off by the end of the head, or one JSON-RPC does not allow", () => {
    expect(peek('{"jsonrpc":"2.0","id":12')).toEqual({});
    expect(peek('{"jsonrpc":"2.0","id":"abc')).toEqual({});
    expect(peek('{"id":{"x":1},"method":"m",')).toEqual({ method: true });
    expect(peek('{"id":"a\\"b","method":"m",')).toEqual({ id: 'a"b', method: true });
  });

  it("finds nothing in what is not an object", () => {
    expect(peek("[1,2,3")).toEqual({});
    expect(peek("Welcome to the agent")).toEqual({});
    expect(peek("")).toEqual({});
  });
});
