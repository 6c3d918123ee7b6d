import { runCli } from './main.js';

// The entry of `fermix` (bin/fermix.cjs imports the bundle built from this file).
const code = await runCli(process.argv.slice(2));
// Let stdout drain before exiting; the daemon verb has already finished its shutdown here.
process.exitCode = code;
