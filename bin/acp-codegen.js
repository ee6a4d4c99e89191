#!/usr/bin/env node
// Thin launcher: the CLI is compiled from generator/ into dist/ by `npm run build` (run by `npm install`).
import { main } from "../dist/generator/cli.js";

process.exitCode = await main(process.argv.slice(2));
