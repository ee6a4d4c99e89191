// Child process: the cost of validating one recorded session cold. Imports one side only (ours,
// the SDK's zod schemas, or nothing for JSON.parse), then validates every message of the corpus
// once, in the order it was recorded, and prints the CPU time that took.
//
//   node bench/lib/cold.mjs --side ours|sdk|json --pkg DIR --schema FILE
//
// This is the pattern of a real connection: most validators run a handful of times per session,
// never long enough for V8 to optimise them, so the steady-state figures of throughput.mjs say
// little about them. Import time is not included (consumer.mjs measures it).

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildItems, largeMessages, loadExchange } from "./corpus.mjs";
import { exportFile, required, sdkZodFile } from "./paths.mjs";

const { values: args } = parseArgs({
  options: { side: { type: "string" }, pkg: { type: "string" }, schema: { type: "string" } },
});

/** @type {Record<string, any>} */
const ours = await import(pathToFileURL(exportFile(required(args.pkg, "pkg"), ".")).href);
const schema = JSON.parse(readFileSync(required(args.schema, "schema"), "utf8"));
const exchange = loadExchange();
const sessionId = exchange.find((m) => m.message.params?.sessionId)?.message.params.sessionId;
const { items } = buildItems({
  methods: ours.METHODS,
  schema,
  messages: [...exchange, ...largeMessages(sessionId)],
});

/** @type {(item: import("./corpus.mjs").Item) => boolean} */
let check;
if (args.side === "ours") {
  check = (item) => ours[`is${item.definition}`](item.value);
} else if (args.side === "sdk") {
  /** @type {Record<string, any>} */
  const zod = await import(pathToFileURL(sdkZodFile()).href);
  check = (item) => zod[`z${item.definition}`].safeParse(item.value).success;
} else {
  check = (item) => JSON.parse(item.json) !== undefined;
}
// Only definitions both sides have, so every side validates the same messages.
const zodNames = new Set(
  Object.keys(await import(pathToFileURL(sdkZodFile()).href)).map((k) => k.slice(1)),
);
const list = items.filter(
  (i) => zodNames.has(i.definition) && typeof ours[`is${i.definition}`] === "function",
);

const start = process.cpuUsage();
let valid = 0;
for (const item of list) if (check(item)) valid++;
const used = process.cpuUsage(start);
process.stdout.write(
  JSON.stringify({ cpuMs: (used.user + used.system) / 1000, messages: list.length, valid }),
);
