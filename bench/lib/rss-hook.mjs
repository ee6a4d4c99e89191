// Preloaded with `node --import` into a measured child process: on exit, writes the process's
// peak resident set size to the file named by ACP_BENCH_RSS_FILE. getrusage's ru_maxrss from
// inside the process works wherever Node does, unlike /usr/bin/time, and needs no parsing.

import { writeFileSync } from "node:fs";

const file = process.env.ACP_BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    writeFileSync(file, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
  });
}
