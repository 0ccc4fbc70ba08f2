#!/usr/bin/env node
// The installed command: the CLI is TypeScript source (as the client it is built on), run through tsx.
import process from 'node:process';
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/main.ts');
process.exitCode = await run(process.argv.slice(2));
