#!/usr/bin/env node
// Kept for scripts and habits that run `node bin/fermix.mjs`: the CLI's entry is bin/fermix.cjs (CommonJS
// starts ~3 ms sooner than an ES module entry; docs/decisions/0027). Loading it here runs it unchanged.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./fermix.cjs');
