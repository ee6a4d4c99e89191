#!/usr/bin/env node
// Thin launcher: the CLI is compiled from generator/ into dist/ by `npm run build` (run by `npm install`).
import { main } from "../dist/generator/cli.js";

// `acp-codegen diff … | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

// Timed from the process's start, so the durations the CLI prints include start-up.
process.exitCode = await main(process.argv.slice(2), undefined, undefined, performance.timeOrigin);
