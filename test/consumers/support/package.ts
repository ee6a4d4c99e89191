import { readFileSync } from "node:fs";
import { STANDARD_KEYWORDS } from "../../../generator/schema/keywords.js";
import type { ConsumerFile } from "./matrix.js";

export interface ReadmeExample extends ConsumerFile {
  /** Uses Node's own modules (or the package's Node entry point): only a Node project compiles it. */
  readonly node: boolean;
  /** What it prints when run: the ```text block right after it, if there is one. */
  readonly output?: string;
}

/**
 * The ```ts blocks of a README, as consumer files: the README's examples are checked like
 * any other consumer, so the docs cannot drift from the package. A block whose first line
 * is `// name.ts` is written under that name (the client examples start `agent.js` by
 * name); the others are numbered. A ```text block right after one is what it prints.
 */
export function readmeExamples(readme: string): ReadmeExample[] {
  const blocks = [
    ...readFileSync(readme, "utf8").matchAll(
      /^```ts\n([\s\S]*?)^```\n(?:\n```text\n([\s\S]*?)^```$)?/gm,
    ),
  ];
  return blocks.map((match, i) => {
    const source = match[1] ?? "";
    const named = /^\/\/ ([\w-]+\.ts)\n/.exec(source)?.[1];
    return {
      name: named ?? `readme-${i + 1}.ts`,
      source,
      node: /from "node:|from "[^"]+\/node"/.test(source),
      ...(match[2] === undefined ? {} : { output: match[2] }),
    };
  });
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every value of `key` anywhere inside `node`. */
function collect(node: Json, visit: (key: string, value: Json) => void): void {
  if (Array.isArray(node)) for (const item of node) collect(item, visit);
  else if (node !== null && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      visit(key, value);
      collect(value, visit);
    }
}

/**
 * The definitions of a schema that `root` does not reach through `$ref`, and the property
 * names they declare that no reachable definition declares. Multi-word names only
 * (`clientCapabilities`, not `name`), and no JSON Schema keyword (the elicitation schema has
 * a `maxLength` property): such a name cannot occur in a bundle by coincidence, in the
 * runtime's code, a validator's error messages or a schema object a kept validator holds.
 */
export function unrelatedDefinitions(
  schemaFile: string,
  root: string,
): { definitions: string[]; properties: string[] } {
  const defs = (JSON.parse(readFileSync(schemaFile, "utf8")) as { $defs: Record<string, Json> })
    .$defs;
  const reached = new Set<string>();
  const pending = [root];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name)) continue;
    reached.add(name);
    collect(defs[name] ?? null, (key, value) => {
      if (key === "$ref" && typeof value === "string")
        pending.push(value.replace(/^#\/\$defs\//, ""));
    });
  }
  const propertiesOf = (names: Iterable<string>) => {
    const found = new Set<string>();
    for (const name of names)
      collect(defs[name] ?? null, (key, value) => {
        if (
          key === "properties" &&
          value !== null &&
          typeof value === "object" &&
          !Array.isArray(value)
        )
          for (const property of Object.keys(value)) found.add(property);
      });
    return found;
  };
  const definitions = Object.keys(defs).filter((name) => !reached.has(name));
  const near = propertiesOf(reached);
  const properties = [...propertiesOf(definitions)]
    .filter((p) => !near.has(p) && !STANDARD_KEYWORDS.has(p) && /[A-Z]/.test(p))
    .sort();
  return { definitions, properties };
}
